//! Words a question in one of the run's two languages shares with a tool declared in the
//! other: 天气 for a `weather` tool, "weather" for a tool described as 查询天气. A teacher
//! registers her tool in English and her class asks in Chinese; the tool fit reads the
//! question's words through this list. Recognition data for the fit, never text the model is
//! told: the common subjects of tools (weather, money, orders, places, units, messages,
//! media, travel, health), not the questions of any benchmark.

use super::declared::{find_form, subject};
use super::fit::Evidence;
use super::ToolSpec;

/// A Chinese term and its English words (lower case; a word's plural is matched by `fit`).
#[rustfmt::skip]
const PAIRS: &[(&str, &[&str])] = &[
    // Weather.
    ("天气", &["weather"]), ("气温", &["temperature"]), ("温度", &["temperature"]),
    ("多少度", &["temperature", "degrees"]), ("下雨", &["rain"]), ("降雨", &["rain"]),
    ("雨伞", &["umbrella", "rain"]), ("下雪", &["snow"]), ("刮风", &["wind"]),
    ("风速", &["wind"]), ("湿度", &["humidity"]), ("预报", &["forecast"]),
    ("空气质量", &["air quality"]),
    // Money and markets.
    ("价格", &["price"]), ("价钱", &["price"]), ("多少钱", &["price", "cost"]),
    ("股价", &["share price", "stock price", "price"]), ("股票", &["stock", "share"]),
    ("股份", &["share"]), ("股", &["share", "stock"]), ("汇率", &["exchange rate", "rate"]), ("兑换", &["exchange"]),
    ("货币", &["currency"]), ("外汇", &["currency", "exchange"]),
    ("美元", &["usd", "dollar"]), ("欧元", &["eur", "euro"]), ("日元", &["jpy", "yen"]),
    ("人民币", &["cny", "yuan", "rmb"]), ("英镑", &["gbp", "pound"]),
    ("费用", &["cost", "fee"]), ("成本", &["cost"]), ("税", &["tax", "vat"]),
    ("余额", &["balance"]), ("账户", &["account"]), ("账号", &["account"]),
    ("付款", &["payment"]), ("发票", &["invoice"]), ("利率", &["interest rate"]),
    ("比特币", &["bitcoin", "btc"]), ("加密货币", &["crypto"]),
    // Orders and shops.
    ("订单", &["order"]), ("包裹", &["parcel", "package"]), ("快递", &["delivery", "parcel"]),
    ("物流", &["shipping", "delivery"]), ("发货", &["shipped", "shipping"]),
    ("送到", &["delivered", "delivery"]), ("送达", &["delivered", "delivery"]),
    ("配送", &["delivery"]), ("退款", &["refund"]), ("退货", &["return"]),
    ("库存", &["stock", "inventory"]), ("商品", &["product", "item"]),
    ("产品", &["product"]), ("购物车", &["cart"]), ("优惠券", &["coupon"]),
    // Places and people.
    ("人口", &["population", "people"]), ("国家", &["country"]), ("城市", &["city"]),
    ("首都", &["capital"]), ("面积", &["area"]), ("距离", &["distance"]),
    ("地址", &["address"]), ("地图", &["map"]), ("路线", &["route", "directions"]),
    ("时区", &["timezone", "time zone"]), ("海拔", &["elevation", "altitude"]),
    ("语言", &["language"]), ("用户", &["user"]), ("员工", &["employee"]),
    ("客户", &["customer"]), ("联系人", &["contact"]), ("电话", &["phone"]),
    // Units.
    ("换算", &["convert", "conversion"]), ("转换", &["convert", "conversion"]),
    ("单位", &["unit"]), ("公里", &["km", "kilometer", "kilometre"]),
    ("千米", &["km", "kilometer", "kilometre"]), ("英里", &["mi", "mile"]),
    ("英尺", &["ft", "foot", "feet"]), ("英寸", &["inch"]), ("厘米", &["cm", "centimeter"]),
    ("公斤", &["kg", "kilogram"]), ("千克", &["kg", "kilogram"]),
    ("磅", &["lb", "pound"]), ("摄氏", &["celsius"]), ("华氏", &["fahrenheit"]),
    ("加仑", &["gallon"]),
    // Messages, calendars, files.
    ("邮件", &["email", "mail"]), ("邮箱", &["email", "mail"]), ("短信", &["sms", "message"]),
    ("消息", &["message"]), ("日历", &["calendar"]), ("日程", &["calendar", "schedule"]),
    ("会议", &["meeting"]), ("提醒", &["reminder"]), ("待办", &["todo", "task"]),
    ("任务", &["task"]), ("文件", &["file"]), ("笔记", &["note"]),
    // Knowledge and media.
    ("新闻", &["news"]), ("翻译", &["translate", "translation"]),
    ("词典", &["dictionary"]), ("字典", &["dictionary"]), ("定义", &["definition"]),
    ("百科", &["wikipedia", "encyclopedia"]), ("电影", &["movie", "film"]),
    ("音乐", &["music"]), ("歌曲", &["song"]), ("图书", &["book"]), ("书籍", &["book"]),
    ("比分", &["score"]), ("比赛", &["match", "game"]), ("球队", &["team"]),
    ("图片", &["image", "picture"]), ("照片", &["photo"]), ("视频", &["video"]),
    // Travel and health.
    ("航班", &["flight"]), ("机票", &["flight", "ticket"]), ("酒店", &["hotel"]),
    ("火车", &["train"]), ("列车", &["train"]), ("门票", &["ticket"]), ("餐厅", &["restaurant"]),
    ("菜谱", &["recipe"]), ("食谱", &["recipe"]), ("卡路里", &["calories"]),
    ("热量", &["calories"]), ("步数", &["steps"]), ("心率", &["heart rate"]),
    ("睡眠", &["sleep"]),
];

/// The question's terms with their words in the other language: (the term as the question
/// writes it, one word of the other language), longest terms first, each place in the
/// question read once (股价 and not also 股).
pub(super) fn glosses(lower: &str) -> Vec<(&'static str, &'static str)> {
    let mut terms: Vec<(&'static str, &'static str, usize, usize)> = Vec::new();
    for (zh, en) in PAIRS {
        // Chinese terms anywhere: the question writes no spaces between words.
        for (at, _) in lower.match_indices(zh) {
            terms.extend(en.iter().map(|w| (*zh, *w, at, zh.len())));
        }
        // English words at word boundaries, in a light word form, for a tool declared in
        // Chinese.
        for word in en.iter().filter(|w| w.len() >= 4) {
            let at = super::days::find_word(lower, word)
                .or_else(|| super::days::find_word(lower, &format!("{word}s")));
            if let Some(at) = at {
                terms.push((*word, *zh, at, word.len()));
            }
        }
    }
    // Longest first, so that a shorter term inside a longer one's place is dropped.
    crate::order::sort_by_key(&mut terms, |t| std::cmp::Reverse(t.3));
    let mut taken: Vec<(usize, usize, &str)> = Vec::new();
    let mut out = Vec::new();
    for (term, word, at, len) in terms {
        let overlaps = |&(a, l, t): &(usize, usize, &str)| t != term && at < a + l && a < at + len;
        if taken.iter().any(overlaps) {
            continue;
        }
        taken.push((at, len, term));
        if !out.contains(&(term, word)) {
            out.push((term, word));
        }
    }
    out
}

/// The words of every term `word` is one of, in English: "rmb" and 人民币 give "cny", "yuan",
/// "rmb".
pub(super) fn synonyms(word: &str) -> impl Iterator<Item = &'static str> + '_ {
    (PAIRS.iter())
        .filter(move |(zh, en)| *zh == word || en.contains(&word))
        .flat_map(|(_, en)| en.iter().copied())
}

/// What the question's terms in the other language point to (`glossary`): 股价 ("price") is
/// the subject of `stock_price`, 美元 ("usd") a word of a description that lists USD. One
/// piece of evidence per term, none for a term the question's own words already gave.
pub(super) fn translated(
    spec: &ToolSpec,
    declared: &str,
    glossed: &[(&str, &str)],
    found: &[Evidence],
) -> Vec<Evidence> {
    let subject = subject(spec);
    let mut out: Vec<Evidence> = Vec::new();
    let mut read: Vec<&str> = Vec::new();
    // A term the tool is about before one its text only mentions.
    for about in [true, false] {
        for &(term, word) in glossed {
            let given = found.iter().any(|e| match e {
                Evidence::Described { word } | Evidence::Keyword { word } => word == term,
                _ => false,
            });
            if given || read.contains(&term) {
                continue;
            }
            let word_shown = format!("{term} ({word})");
            if about && subject.iter().any(|s| find_form(word, s).is_some()) {
                out.push(Evidence::Keyword { word: word_shown });
            } else if !about && find_form(declared, word).is_some() {
                out.push(Evidence::Described { word: word_shown });
            } else {
                continue;
            }
            read.push(term);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::glosses;

    #[test]
    fn a_question_read_in_the_other_language() {
        let cases: &[(&str, &[(&str, &str)])] = &[
            ("开罗今天天气怎么样？", &[("天气", "weather")]),
            (
                "globx 的股价现在是多少？",
                &[
                    ("股价", "share price"),
                    ("股价", "stock price"),
                    ("股价", "price"),
                ],
            ),
            (
                "10 英里是多少公里？",
                &[
                    ("英里", "mi"),
                    ("英里", "mile"),
                    ("公里", "km"),
                    ("公里", "kilometer"),
                    ("公里", "kilometre"),
                ],
            ),
            ("what is the weather in paris?", &[("weather", "天气")]),
            (
                "how many orders shipped?",
                &[("order", "订单"), ("shipped", "发货")],
            ),
            // No term: nothing read into the question.
            ("what is 48 * 37?", &[]),
        ];
        for (question, expected) in cases {
            let mut got = glosses(question);
            let mut want = expected.to_vec();
            got.sort();
            want.sort();
            assert_eq!(got, want, "{question}");
        }
    }
}
