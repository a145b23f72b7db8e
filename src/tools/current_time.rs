//! The `current_time` tool. The core never reads a clock: the host passes the time in a
//! [`HostContext`], and this module only formats it (with its own calendar arithmetic).

use crate::lang::Lang;
use serde_json::json;

use super::{Builtin, HostContext, ToolError, ToolSpec};

const MS_PER_DAY: i64 = 86_400_000;
/// JavaScript's Date range, ±100,000,000 days around 1970.
const MAX_ABS_MS: f64 = 8.64e15;
/// Real UTC offsets lie within ±14 h; ±18 h is the widest any standard allows.
const MAX_OFFSET_MINUTES: i32 = 18 * 60;
/// The most days from today the clock counts: about 2,700 years either way.
pub const MAX_DAYS: i64 = 1_000_000;
const WEEKDAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// The weekday in a Chinese run's result: the tool's answer (like its date format below), not
/// a message to the model, so it stays with the tool rather than in [`crate::told`].
const WEEKDAYS_ZH: [&str; 7] = [
    "星期日",
    "星期一",
    "星期二",
    "星期三",
    "星期四",
    "星期五",
    "星期六",
];

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

pub(crate) fn spec() -> ToolSpec {
    ToolSpec {
        name: Builtin::CurrentTime.name().into(),
        description: "Returns today's date, the time, the weekday, the month and the year; with days, the date that many days from today.".into(),
        // A constrained call leaves `days` to its default unless the question names a day
        // (`crate::tools::days`); see `crate::ask`.
        parameters: json!({
            "type": "object",
            "properties": {"days": {"type": "integer", "default": 0}}
        }),
        role: Some(super::Role::Clock),
        ..ToolSpec::default()
    }
}

/// Formats the host's time as `Monday, 30 November 2026, 14:05:09 (UTC+08:00); date
/// 2026-11-30`: the names spelled out, since small models misread `11` as a month name. A
/// Chinese run gets `2026年11月30日 星期一 14:05:09（UTC+08:00）；日期 2026-11-30`, so the
/// answer can be copied in the question's language. `days` from today gives that day's date
/// alone, named as a question names it, `Tomorrow: Tuesday, 1 December 2026; date 2026-12-01`:
/// no time of day whose numbers a model could take for the date's.
pub fn format_time(host: &HostContext, lang: Lang, days: i64) -> Result<String, ToolError> {
    let HostContext {
        now_unix_ms,
        utc_offset_minutes: offset,
    } = *host;
    if !(now_unix_ms.is_finite() && now_unix_ms.abs() <= MAX_ABS_MS)
        || offset.abs() > MAX_OFFSET_MINUTES
    {
        return Err(ToolError::InvalidClock {
            now_unix_ms,
            utc_offset_minutes: offset,
        });
    }
    // In range, so the cast is exact enough and cannot overflow.
    let local_ms = now_unix_ms.floor() as i64 + i64::from(offset) * 60_000;
    let today = local_ms.div_euclid(MS_PER_DAY);
    let secs_of_day = local_ms.rem_euclid(MS_PER_DAY) / 1000;
    if days.abs() > MAX_DAYS {
        return Err(ToolError::InvalidInput {
            tool: Builtin::CurrentTime.name().into(),
            message: format!("'days' must be from -{MAX_DAYS} to {MAX_DAYS}, not {days}"),
        });
    }
    let (year, month, day) = civil_from_days(today + days);
    // 1970-01-01 was a Thursday.
    let weekday = (today + days + 4).rem_euclid(7) as usize;
    let sign = if offset < 0 { '-' } else { '+' };
    let clock = format!(
        "{:02}:{:02}:{:02}",
        secs_of_day / 3600,
        secs_of_day / 60 % 60,
        secs_of_day % 60
    );
    let zone = format!("UTC{sign}{:02}:{:02}", offset.abs() / 60, offset.abs() % 60);
    let date = format!("{year:04}-{month:02}-{day:02}");
    if days != 0 {
        let n = days.abs();
        // The day named as the question names it: told "(1 day after today)", the 1.5B model
        // added the day again.
        let name = match (lang, days) {
            (Lang::En, 1) => "Tomorrow".to_string(),
            (Lang::En, -1) => "Yesterday".to_string(),
            (Lang::En, 2..) => format!("{n} days from today"),
            (Lang::En, _) => format!("{n} days ago"),
            (Lang::Zh, 1) => "明天".to_string(),
            (Lang::Zh, -1) => "昨天".to_string(),
            (Lang::Zh, 2..) => format!("{n} 天后"),
            (Lang::Zh, _) => format!("{n} 天前"),
        };
        return Ok(match lang {
            Lang::En => format!(
                "{name}: {}, {day} {} {year}; date {date}",
                WEEKDAYS[weekday],
                MONTHS[(month - 1) as usize],
            ),
            Lang::Zh => format!(
                "{name}：{year}年{month}月{day}日 {}；日期 {date}",
                WEEKDAYS_ZH[weekday],
            ),
        });
    }
    Ok(match lang {
        // `month` is 1..=12 by construction.
        Lang::En => format!(
            "{}, {day} {} {year}, {clock} ({zone}); date {date}",
            WEEKDAYS[weekday],
            MONTHS[(month - 1) as usize]
        ),
        Lang::Zh => format!(
            "{year}年{month}月{day}日 {} {clock}（{zone}）；日期 {date}",
            WEEKDAYS_ZH[weekday]
        ),
    })
}

/// The year of the date a [`format_time`] result gives ("…; date 2025-03-14"), read back.
pub fn year_of(observation: &str) -> Option<String> {
    let (_, date) = observation
        .rsplit_once("; date ")
        .or_else(|| observation.rsplit_once("；日期 "))?;
    let year = date.split('-').next()?;
    (year.len() == 4 && year.chars().all(|c| c.is_ascii_digit())).then(|| year.to_string())
}

/// Proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm,
/// valid for any i64 day count that does not overflow the shift below).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468; // shift the epoch to 0000-03-01, so leap days end each cycle
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // day of the 400-year era
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // day of the March-based year
    let mp = (5 * doy + 2) / 153; // March = 0
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::civil_from_days;

    #[test]
    fn civil_dates() {
        for (days, date) in [
            (0, (1970, 1, 1)),
            (-1, (1969, 12, 31)),
            (11_016, (2000, 2, 29)),
            (11_017, (2000, 3, 1)),
            (19_782, (2024, 2, 29)),
            (-719_468, (0, 3, 1)),
        ] {
            assert_eq!(civil_from_days(days), date, "day {days}");
        }
    }
}
