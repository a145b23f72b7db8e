//! Inputs for the SSE decoder: event-stream bodies (well-formed, broken, oversized) and the
//! chunk sizes they arrive in.

use crate::fragments::{fragments, long_run, mutate, random_text, JSON_BITS, LABELS};
use crate::rng::Rng;
use crate::Input;
use serde_json::json;

pub(crate) fn gen_sse(rng: &Rng) -> Input {
    let mut body = Vec::new();
    let eol = *rng.pick(&["\n", "\r\n", "\r"]);
    let events = rng.below(12);
    if rng.chance(12) {
        // Not a stream: a JSON body, an HTML page, or garbage.
        let text = match rng.below(3) {
            0 => json!({"choices": [{"message": {"content": random_text(rng, 40)}}]}).to_string(),
            1 => "<html>proxy login</html>".to_string(),
            _ => fragments(rng, JSON_BITS, 20),
        };
        body.extend_from_slice(
            mutate(rng, &text, JSON_BITS, std::slice::from_ref(&text)).as_bytes(),
        );
    }
    for _ in 0..events {
        let line = match rng.below(12) {
            0..=4 => {
                let content = if rng.chance(3) {
                    fragments(rng, LABELS, 3)
                } else {
                    random_text(rng, 12)
                };
                let delta = json!({"choices": [{"delta": {"content": content}, "index": 0}]});
                let mut chunk = delta.to_string();
                if rng.chance(6) {
                    chunk = mutate(rng, &chunk, JSON_BITS, std::slice::from_ref(&chunk));
                }
                format!("data: {chunk}{eol}{eol}")
            }
            5 => {
                let (prompt, completion) = (rng.below(1000), rng.next() as i64);
                let usage = json!({"prompt_tokens": prompt, "completion_tokens": completion});
                format!("data: {}{eol}{eol}", json!({"choices": [], "usage": usage}))
            }
            6 => format!(": keep-alive{eol}"),
            7 => {
                let error = json!({"error": {"message": random_text(rng, 10)}});
                format!("event: error{eol}data: {error}{eol}{eol}")
            }
            8 => format!("error: {}{eol}", fragments(rng, JSON_BITS, 5)),
            9 => format!("data: [DONE]{eol}{eol}"),
            10 => {
                const FIELDS: &[&str] = &[
                    "id: 1",
                    "retry: 10",
                    "event: message",
                    "data:",
                    "data",
                    "data: {",
                    "",
                ];
                format!("{}{eol}", rng.pick(FIELDS))
            }
            _ => {
                const BITS: &[&str] = &[
                    "data: ",
                    "\n",
                    "\r",
                    "\r\n",
                    "{",
                    "}",
                    "[DONE]",
                    ":",
                    "event: error",
                ];
                fragments(rng, BITS, 6)
            }
        };
        body.extend_from_slice(line.as_bytes());
        if rng.chance(30) {
            // Raw bytes: invalid UTF-8, a lone continuation byte, a cut multi-byte char.
            let junk = *rng.pick::<&[u8]>(&[
                &[0xff][..],
                &[0x80],
                &[0xe4, 0xb8],
                &[0xf0, 0x9f, 0x98],
                &[0xc0, 0xaf],
                &[0],
            ]);
            body.extend_from_slice(junk);
        }
    }
    if rng.chance(20) {
        body.extend_from_slice(b"data: ");
        body.extend_from_slice(long_run(rng).as_bytes());
    }
    let mut cuts = Vec::new();
    let mut left = body.len();
    while left > 0 {
        let n = match rng.below(4) {
            0 => 1,
            1 => 1 + rng.below(8),
            2 => 1 + rng.below(100),
            _ => left,
        }
        .min(left);
        cuts.push(n);
        left -= n;
    }
    let as_text = rng.chance(8) && std::str::from_utf8(&body).is_ok();
    Input::Stream {
        body,
        cuts,
        as_text,
    }
}
