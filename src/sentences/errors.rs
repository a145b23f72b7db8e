//! A model error for the person at the page: what went wrong ([`llm_error`], also the error's
//! `Display`) and the concrete fix ([`hint`]: which command to run, which setting to change,
//! phrased for the page's origin and the server's answer), in English and Chinese.

use std::fmt;

use crate::lang::Text;
use crate::limits::megabytes;
use crate::llm::{
    models_url, page_place, LlmError, Oversized, PageModelCode, PagePlace, MAX_ATTEMPTS,
};

fn text(en: String, zh: String) -> Text {
    Text { en, zh }
}

/// The English is the error's `Display`, so a log or a CLI says the same as the page.
impl fmt::Display for LlmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&llm_error(self).en)
    }
}

/// What went wrong.
pub fn llm_error(error: &LlmError) -> Text {
    match error {
        LlmError::Network { url, detail } => {
            let (en_detail, zh_detail) = match detail.is_empty() {
                true => (String::new(), String::new()),
                false => (format!(" ({detail})"), format!("（{detail}）")),
            };
            text(
                format!(
                    "Could not reach {url}{en_detail}. Browsers report a stopped server and a \
                     refused origin the same way, so check both: is the model server running at \
                     that address, and does it allow this page's origin? Ollama: \
                     `OLLAMA_ORIGINS=<origin> ollama serve`; LM Studio: `lms server start \
                     --cors`; llama.cpp's server allows every origin by default."
                ),
                format!(
                    "无法连接 {url}{zh_detail}。浏览器对“服务器没有运行”和“服务器拒绝本页来源”报告的是同一种错误，\
                     所以两者都要检查：模型服务器是否在这个地址运行？它是否允许本页的来源？\
                     Ollama：`OLLAMA_ORIGINS=<origin> ollama serve`；LM Studio：`lms server start --cors`；\
                     llama.cpp 的服务器默认允许所有来源。"
                ),
            )
        }
        LlmError::MixedContent { page_origin, url } => text(
            format!(
                "This page was loaded over https ({page_origin}), so the browser blocks its \
                 requests to the plain-http address {url} (mixed content); only localhost and \
                 127.0.0.1 are exempt."
            ),
            format!(
                "本页通过 https（{page_origin}）加载，所以浏览器会拦截它发往纯 http 地址 {url} 的请求\
                 （混合内容）；只有 localhost 和 127.0.0.1 例外。"
            ),
        ),
        LlmError::Http {
            status,
            url,
            body_excerpt,
            server_message,
            models,
        } => {
            let summary = http_summary(*status, url);
            let (mut en, mut zh) = (summary.en, summary.zh);
            match (server_message, body_excerpt.is_empty()) {
                (Some(message), _) => {
                    en.push_str(&format!(" The server says: {message}"));
                    zh.push_str(&format!("服务器说：{message}"));
                }
                (None, false) => {
                    en.push_str(&format!(" The reply begins: «{body_excerpt}»"));
                    zh.push_str(&format!("回复的开头是：«{body_excerpt}»"));
                }
                (None, true) => {}
            }
            match models.as_deref() {
                Some([]) => {
                    en.push_str(" The server lists no models.");
                    zh.push_str("服务器没有列出任何模型。");
                }
                Some(names) => {
                    en.push_str(&format!(" The server offers: {}.", names.join(", ")));
                    zh.push_str(&format!("服务器提供的模型：{}。", names.join(", ")));
                }
                None => {}
            }
            text(en, zh)
        }
        LlmError::Server { message } => text(
            format!("The model server reported an error: {message}"),
            format!("模型服务器报告了错误：{message}"),
        ),
        LlmError::PageModel { code, detail } => page_model(*code, detail),
        LlmError::NotJson { excerpt } if excerpt.is_empty() => text(
            "The server sent an empty reply instead of JSON.".to_string(),
            "服务器返回了空回复，而不是 JSON。".to_string(),
        ),
        LlmError::NotJson { excerpt } => text(
            format!(
                "The server's reply is not JSON, so this address is probably not an \
                 OpenAI-compatible API. It begins: «{excerpt}»"
            ),
            format!("服务器的回复不是 JSON，所以这个地址可能不是 OpenAI 兼容的 API。回复的开头是：«{excerpt}»"),
        ),
        LlmError::UnexpectedReply { expected, excerpt } => text(
            format!(
                "The server answered with JSON, but not in the OpenAI-compatible format (it \
                 lacks {expected}): «{excerpt}»"
            ),
            format!("服务器返回了 JSON，但不是 OpenAI 兼容的格式（缺少 {expected}）：«{excerpt}»"),
        ),
        LlmError::Timeout { ms } => text(
            format!("The model did not answer within {}.", seconds(*ms)),
            format!("模型没有在 {} 内回答。", seconds(*ms)),
        ),
        LlmError::Aborted => text(
            "The request was cancelled.".to_string(),
            "请求已取消。".to_string(),
        ),
        LlmError::Stream { message } => text(
            format!("The streamed reply broke off or was malformed: {message}"),
            format!("流式回复中断了或格式有误：{message}"),
        ),
        // Seen when a reply began with a stop sequence: the server cuts there, at the start.
        LlmError::EmptyReply => text(
            "The model's reply came back empty. A server cuts a reply at its first stop \
             sequence, so a reply that begins with one (such as \"Observation:\") arrives with \
             nothing in it."
                .to_string(),
            "模型的回复是空的。服务器会在第一个停止序列处截断回复，所以以停止序列开头的回复\
             （例如 \"Observation:\"）到达时什么也没有。"
                .to_string(),
        ),
        LlmError::TooLarge { part, limit_bytes } => {
            let limit = megabytes(*limit_bytes);
            match part {
                Oversized::Body => text(
                    format!(
                        "The server's reply is larger than {limit}, far more than any chat \
                         reply, so reading stopped there."
                    ),
                    format!("服务器的回复超过了 {limit}，远大于任何聊天回复，所以读到那里就停止了。"),
                ),
                Oversized::StreamLine => text(
                    format!(
                        "A line of the streamed reply ran past {limit} without ending, so \
                         reading stopped there."
                    ),
                    format!("流式回复中的一行超过了 {limit} 仍未结束，所以读到那里就停止了。"),
                ),
                Oversized::StreamEvent => text(
                    format!(
                        "An event of the streamed reply grew past {limit} without ending, so \
                         reading stopped there."
                    ),
                    format!("流式回复中的一个事件超过了 {limit} 仍未结束，所以读到那里就停止了。"),
                ),
                Oversized::StreamedText => text(
                    format!("The streamed reply passed {limit} of text, so reading stopped there."),
                    format!("流式回复的文字超过了 {limit}，所以读到那里就停止了。"),
                ),
            }
        }
    }
}

fn http_summary(status: u16, url: &str) -> Text {
    match status {
        400 => text(
            format!("The server at {url} rejected the request as invalid (HTTP 400)."),
            format!("{url} 的服务器认为请求无效而拒绝了它（HTTP 400）。"),
        ),
        401 => text(
            format!(
                "The server at {url} requires an API key and did not accept the one sent (HTTP \
                 401)."
            ),
            format!("{url} 的服务器需要 API 密钥，并且没有接受发送的密钥（HTTP 401）。"),
        ),
        403 => text(
            format!(
                "The server at {url} refused the request (HTTP 403 Forbidden): either the API \
                 key may not do this, or the server does not accept requests from this page's \
                 origin (Ollama answers a disallowed origin with 403 and an empty body)."
            ),
            format!(
                "{url} 的服务器拒绝了请求（HTTP 403 Forbidden）：要么这个 API 密钥没有这样做的权限，\
                 要么服务器不接受来自本页来源的请求（Ollama 对不允许的来源返回 403 和空的正文）。"
            ),
        ),
        404 => text(
            format!(
                "Nothing was found at {url} (HTTP 404): either the base URL is wrong or the \
                 server does not know the model."
            ),
            format!("在 {url} 没有找到任何东西（HTTP 404）：要么基础 URL 写错了，要么服务器不认识这个模型。"),
        ),
        429 => text(
            format!(
                "The server at {url} is limiting how many requests it accepts (HTTP 429 Too \
                 Many Requests)."
            ),
            format!("{url} 的服务器在限制它接受的请求数量（HTTP 429 Too Many Requests）。"),
        ),
        500 => text(
            format!("The server at {url} failed while answering (HTTP 500)."),
            format!("{url} 的服务器在回答时出错（HTTP 500）。"),
        ),
        502 | 504 => text(
            format!(
                "A proxy in front of the model server at {url} got no proper answer from it \
                 (HTTP {status})."
            ),
            format!("{url} 的模型服务器前面的代理没有从它那里得到正常的回答（HTTP {status}）。"),
        ),
        503 => text(
            format!(
                "The server at {url} is busy or still loading the model (HTTP 503 Service \
                 Unavailable)."
            ),
            format!("{url} 的服务器正忙，或者还在加载模型（HTTP 503 Service Unavailable）。"),
        ),
        501..=599 => text(
            format!("The server at {url} failed (HTTP {status})."),
            format!("{url} 的服务器出错了（HTTP {status}）。"),
        ),
        _ => text(
            format!("The server at {url} answered with HTTP {status} instead of a reply."),
            format!("{url} 的服务器返回了 HTTP {status}，而不是回复。"),
        ),
    }
}

pub(crate) fn seconds(ms: u32) -> String {
    format!("{} s", crate::numbers::tenths((u64::from(ms) + 50) / 100))
}

/// The server's OpenAI-compatible addresses, quoted in several fixes.
const ADDRESSES: &str = "(Ollama: http://localhost:11434/v1, llama.cpp: http://localhost:8080/v1, \
                         LM Studio: http://localhost:1234/v1)";
const ADDRESSES_ZH: &str =
    "（Ollama：http://localhost:11434/v1，llama.cpp：http://localhost:8080/v1，\
                            LM Studio：http://localhost:1234/v1）";

/// The concrete fix, phrased for this page (`page_origin` like `https://me.github.io`).
pub fn hint(error: &LlmError, page_origin: &str) -> Option<Text> {
    let origin = command_origin(page_origin);
    Some(match error {
        LlmError::Network { url, .. } => {
            let models = models_url(url);
            let mut said = text(
                format!(
                    "Open {models} in a new browser tab. If it does not load, start the model \
                     server (for example `ollama serve`, or `llama-server -m MODEL.gguf --port \
                     8080`) or correct the base URL. If it loads there but not here, the server \
                     refuses this page's origin {origin}: for Ollama restart it with \
                     `OLLAMA_ORIGINS={origin} ollama serve`; for LM Studio run `lms server start \
                     --cors`; llama.cpp's server allows every origin by default."
                ),
                format!(
                    "在新的浏览器标签页中打开 {models}。如果打不开，请启动模型服务器（例如 `ollama serve`，\
                     或 `llama-server -m MODEL.gguf --port 8080`）或改正基础 URL。如果那里能打开而这里不行，\
                     说明服务器拒绝了本页的来源 {origin}：Ollama 请用 `OLLAMA_ORIGINS={origin} ollama serve` \
                     重新启动；LM Studio 请运行 `lms server start --cors`；llama.cpp 的服务器默认允许所有来源。"
                ),
            );
            if error.private_network(page_origin) {
                said.en.push_str(
                    " An https page may call http://localhost, but recent Chrome first asks you \
                     whether this site may reach devices on your local network: if you said no, \
                     or saw no question, allow it in the site's settings (the icon left of the \
                     address), or open the playground from http://localhost.",
                );
                said.zh.push_str(
                    "https 页面可以访问 http://localhost，但较新的 Chrome 会先询问你是否允许这个网站访问\
                     本地网络中的设备：如果你拒绝了或没有看到询问，请在网站设置中允许（地址栏左侧的图标），\
                     或从 http://localhost 打开本页。",
                );
            }
            said
        }
        LlmError::MixedContent { .. } => text(
            "Open this page over http (for example from a local copy), put the model server \
             behind https, or forward its port to this computer (`ssh -L 11434:localhost:11434 \
             HOST`) and use http://localhost:11434/v1."
                .to_string(),
            "通过 http 打开本页（例如从本地副本打开），或让模型服务器走 https，或把它的端口转发到这台电脑\
             （`ssh -L 11434:localhost:11434 HOST`）并使用 http://localhost:11434/v1。"
                .to_string(),
        ),
        LlmError::Http {
            status,
            server_message,
            models,
            ..
        } => return http_hint(*status, server_message.as_deref(), models.as_deref(), &origin),
        LlmError::Server { message } => return context_hint(message),
        LlmError::PageModel { code, .. } => return page_model_hint(*code),
        LlmError::NotJson { .. } | LlmError::UnexpectedReply { .. } => text(
            format!(
                "Check that the base URL points at the OpenAI-compatible API, which usually \
                 ends in /v1 {ADDRESSES}."
            ),
            format!("请检查基础 URL 是否指向 OpenAI 兼容的 API，它通常以 /v1 结尾{ADDRESSES_ZH}。"),
        ),
        LlmError::Timeout { ms } => text(
            format!(
                "Small machines can be slow: raise the timeout (now {}), lower max tokens, use \
                 a smaller model, or turn on streaming to watch the reply arrive.",
                seconds(*ms)
            ),
            format!(
                "小机器可能很慢：调高超时（现在是 {}），调低最大 token 数，换一个更小的模型，\
                 或打开流式输出来观看回复逐字到达。",
                seconds(*ms)
            ),
        ),
        LlmError::Aborted => return None,
        LlmError::Stream { .. } => text(
            "Turn streaming off in the settings and try again.".to_string(),
            "在设置中关闭流式输出，然后重试。".to_string(),
        ),
        LlmError::EmptyReply => text(
            "Raise max tokens, check that no stop sequence matches the start of the reply, or \
             try another model."
                .to_string(),
            "调高最大 token 数，检查没有停止序列与回复的开头相同，或换一个模型试试。".to_string(),
        ),
        LlmError::TooLarge { part, .. } => match part {
            Oversized::Body => text(
                format!(
                    "A chat reply is a few kilobytes: check that the base URL points at the \
                     OpenAI-compatible API, which usually ends in /v1 {ADDRESSES}, not at a \
                     file or a page."
                ),
                format!(
                    "聊天回复只有几 KB：请检查基础 URL 指向的是 OpenAI 兼容的 API（通常以 /v1 结尾\
                     {ADDRESSES_ZH}），而不是一个文件或网页。"
                ),
            ),
            Oversized::StreamLine | Oversized::StreamEvent => text(
                "The server, or a proxy in front of it, does not send a proper event stream: \
                 check the base URL, or turn streaming off in the settings."
                    .to_string(),
                "服务器（或它前面的代理）发送的不是正常的事件流：请检查基础 URL，或在设置中关闭流式输出。"
                    .to_string(),
            ),
            Oversized::StreamedText => text(
                "The model may be repeating itself: lower max tokens, or add a stop sequence."
                    .to_string(),
                "模型可能在不断重复：调低最大 token 数，或添加一个停止序列。".to_string(),
            ),
        },
    })
}

fn http_hint(
    status: u16,
    server_message: Option<&str>,
    models: Option<&[String]>,
    origin: &str,
) -> Option<Text> {
    Some(match status {
        400 => {
            return server_message.and_then(context_hint).or_else(|| {
                Some(text(
                    "Check the settings (model, max tokens, constrained output); the server's \
                     message names what it rejects."
                        .to_string(),
                    "请检查设置（模型、最大 token 数、受约束输出）；服务器的消息说明了它拒绝的是什么。"
                        .to_string(),
                ))
            })
        }
        401 => text(
            "Enter the server's API key in the settings; it is sent as `Authorization: Bearer \
             <key>`."
                .to_string(),
            "在设置中填入服务器的 API 密钥；它会以 `Authorization: Bearer <key>` 发送。".to_string(),
        ),
        403 => text(
            format!(
                "If the server is Ollama, restart it allowing this page: \
                 `OLLAMA_ORIGINS={origin} ollama serve`. Otherwise check that the API key may \
                 use this model."
            ),
            format!(
                "如果服务器是 Ollama，请重新启动它并允许本页：`OLLAMA_ORIGINS={origin} ollama serve`。\
                 否则请检查这个 API 密钥是否可以使用该模型。"
            ),
        ),
        404 => {
            let offered = match models {
                Some(names) if !names.is_empty() => Some(names.join(", ")),
                _ => None,
            };
            text(
                format!(
                    "Check the base URL: OpenAI-compatible servers usually expect it to end in \
                     /v1 {ADDRESSES}. Then check the model name{}",
                    offered.as_ref().map_or(".".to_string(), |names| format!(
                        "; the server offers: {names}."
                    ))
                ),
                format!(
                    "请检查基础 URL：OpenAI 兼容的服务器通常要求它以 /v1 结尾{ADDRESSES_ZH}。\
                     然后检查模型名称{}",
                    offered.as_ref().map_or("。".to_string(), |names| format!(
                        "；服务器提供的模型：{names}。"
                    ))
                ),
            )
        }
        429 => text(
            format!(
                "Wait a moment and try again; the request is retried automatically up to {} \
                 times.",
                MAX_ATTEMPTS - 1
            ),
            format!("稍等片刻再试；请求会自动重试，最多 {} 次。", MAX_ATTEMPTS - 1),
        ),
        503 => text(
            "Wait until the server has loaded the model, then try again.".to_string(),
            "等服务器加载完模型后再试。".to_string(),
        ),
        500..=599 => {
            return server_message.and_then(context_hint).or_else(|| {
                Some(text(
                    "Look at the server's console for the cause. If constrained output is on, \
                     try another mode: llama-cpp-python rejects json_schema (use json_object), \
                     and not every server supports grammar."
                        .to_string(),
                    "请在服务器的控制台中查看原因。如果开启了受约束输出，请换一种模式试试：\
                     llama-cpp-python 不接受 json_schema（请用 json_object），也不是每个服务器都支持 grammar。"
                        .to_string(),
                ))
            })
        }
        _ => return None,
    })
}

/// A page's model function that failed; the in-page engine says how with its code.
fn page_model(code: PageModelCode, detail: &str) -> Text {
    let (en_detail, zh_detail) = match detail.is_empty() {
        true => (String::new(), String::new()),
        false => (format!(": {detail}"), format!("：{detail}")),
    };
    match code {
        PageModelCode::NotLoaded => text(
            "No model is loaded in the page.".to_string(),
            "页面里还没有加载模型。".to_string(),
        ),
        PageModelCode::Context => text(
            format!("The conversation no longer fits the in-page model's context{en_detail}"),
            format!("对话已经超出了页面内模型的上下文{zh_detail}"),
        ),
        PageModelCode::Engine => text(
            format!("The in-page engine failed{en_detail}"),
            format!("页面内引擎出错了{zh_detail}"),
        ),
        PageModelCode::Other => text(
            format!("The page's model function failed{en_detail}"),
            format!("页面提供的模型函数出错了{zh_detail}"),
        ),
    }
}

fn page_model_hint(code: PageModelCode) -> Option<Text> {
    Some(match code {
        PageModelCode::NotLoaded => text(
            "Pick a GGUF file under Connect, \"In this page\", and wait until it is loaded."
                .to_string(),
            "在“连接”中选择“在本页运行”，选一个 GGUF 文件，等它加载完成。".to_string(),
        ),
        PageModelCode::Context => text(
            "Lower \"History rounds kept\" or \"Max tokens\", or start a new run.".to_string(),
            "调低“保留的历史轮数”或“最大 token 数”，或开始新的运行。".to_string(),
        ),
        PageModelCode::Engine | PageModelCode::Other => return None,
    })
}

/// Servers word it differently ("exceeds the available context size", "context length"), but
/// all of them say "context" when the conversation no longer fits.
fn context_hint(message: &str) -> Option<Text> {
    message.to_ascii_lowercase().contains("context").then(|| {
        text(
            "The conversation no longer fits in the model's context window: start a new run, \
             lower max tokens, or restart the server with a larger context (llama.cpp: `-c \
             8192`, llama-cpp-python: `--n_ctx 8192`)."
                .to_string(),
            "对话已经超出了模型的上下文窗口：请开始新的运行，调低最大 token 数，或用更大的上下文重新启动服务器\
             （llama.cpp：`-c 8192`，llama-cpp-python：`--n_ctx 8192`）。"
                .to_string(),
        )
    })
}

/// The origin to paste into `OLLAMA_ORIGINS`; a `file://` page has the origin `null`.
/// What a page that is not on the reader's computer must say before it calls a server there
/// (the playground does not probe such servers on load: Chrome would ask at once), or `None`
/// for a page on this computer.
pub fn hosted_page(page_origin: &str) -> Option<Text> {
    let origin = command_origin(page_origin);
    let servers_en = format!(
        "To use a model server on your computer, it must allow this page's origin: Ollama \
         `OLLAMA_ORIGINS={origin} ollama serve`, LM Studio `lms server start --cors`; \
         llama.cpp's server allows every origin."
    );
    let servers_zh = format!(
        "要使用你电脑上的模型服务器，它必须允许本页的来源：Ollama 用 \
         `OLLAMA_ORIGINS={origin} ollama serve`，LM Studio 用 `lms server start --cors`；\
         llama.cpp 的服务器默认允许所有来源。"
    );
    Some(match page_place(page_origin) {
        PagePlace::ThisComputer => return None,
        PagePlace::Https => text(
            format!(
                "This page comes from {origin}, not from your computer. {servers_en} The browser \
                 lets an https page call http://localhost, but recent Chrome first asks you \
                 whether this site may reach devices on your local network: allow it. Nothing is \
                 sent to your computer before you press Look for local servers."
            ),
            format!(
                "本页来自 {origin}，不在你的电脑上。{servers_zh}浏览器允许 https 页面访问 \
                 http://localhost，但较新的 Chrome 会先询问你是否允许这个网站访问本地网络中的设备：\
                 请允许。在你按下“查找本机服务器”之前，不会向你的电脑发送任何请求。"
            ),
        ),
        PagePlace::Http => text(
            format!(
                "This page comes from {origin}, a plain-http address that is not your computer. \
                 {servers_en} Chrome lets such a page reach your computer only after asking \
                 you, and it can ask only on https pages: run the playground on your own \
                 computer (unpack the site archive and run `python3 -m http.server` in it), or \
                 serve it over https."
            ),
            format!(
                "本页来自 {origin}，这是一个普通 http 地址，不在你的电脑上。{servers_zh}Chrome 只有在\
                 询问你之后才允许这样的页面访问你的电脑，而且只能在 https 页面上询问：请在你自己的电脑上\
                 运行 playground（解压网站压缩包，在其中运行 `python3 -m http.server`），或通过 https 提供它。"
            ),
        ),
    })
}

fn command_origin(page_origin: &str) -> String {
    match page_origin.trim().trim_end_matches('/') {
        "" | "null" => "*".to_string(),
        origin => origin.to_string(),
    }
}
