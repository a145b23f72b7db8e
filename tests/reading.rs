//! A parsed reply read in its run: the same words are an answer, a call or a mistake
//! depending on what came before (`reactloop::reading::in_context`), one case per row.

use reactloop::lang::Lang;
use reactloop::parse::{parse_reply, FormatError, Parsed, Repair};
use reactloop::prompt::FewShot;
use reactloop::reading::{in_context, Examples, PastCall, RunSoFar, SentBack};
use reactloop::told;
use reactloop::tools::{default_documents, Registry};
use serde_json::json;

/// What the run had seen: the calls made, whether a final answer was just sent back empty,
/// and whether the request asked only for the answer.
struct Before {
    question: &'static str,
    calls: Vec<PastCall>,
    after_empty_answer: bool,
    answer_asked: bool,
    last_step: bool,
    number_noted: bool,
    result_noted: bool,
    question_noted: bool,
    steered: bool,
    /// The one tool the request allowed.
    allowed_only: Option<&'static str>,
    /// What the loop wrote into the Observations.
    notes: Vec<String>,
}

const NOTHING: fn() -> Before = || Before {
    question: "What is 6 * 7?",
    calls: vec![],
    after_empty_answer: false,
    answer_asked: false,
    last_step: false,
    number_noted: false,
    result_noted: false,
    question_noted: false,
    steered: false,
    allowed_only: None,
    notes: vec![],
};

const CLOCK: &str = "Friday, 14 March 2025, 12:00:00 (UTC+00:00); date 2025-03-14";

/// The clock ran for a question that needs one more step.
fn clock_ran(question: &'static str) -> Before {
    Before {
        question,
        ..ran("current_time", json!({}), CLOCK)
    }
}

const LAST_STEP: fn() -> Before = || Before {
    last_step: true,
    ..NOTHING()
};

const ANSWER_ASKED: fn() -> Before = || Before {
    answer_asked: true,
    ..NOTHING()
};

/// One call that succeeded with this result, for a question without numbers of its own.
fn ran(tool: &str, args: serde_json::Value, result: &str) -> Before {
    Before {
        question: "What does the tool say?",
        calls: vec![PastCall {
            tool: tool.into(),
            role: (tool == "calculator").then_some(reactloop::tools::Role::Computes),
            args,
            observation: result.into(),
            succeeded: true,
            repeats: 0,
        }],
        ..NOTHING()
    }
}

fn calc_ran(expression: &str, result: &str) -> Before {
    ran("calculator", json!({ "expression": expression }), result)
}

/// A search that found `result`, then a request that asked for the answer.
fn searched(query: &str, result: &str) -> Before {
    Before {
        answer_asked: true,
        ..ran("search_docs", json!({ "query": query }), result)
    }
}

/// A search found `result`; then a calculation for a question without numbers got the loop's
/// note after its result, in `lang`.
fn noted(result: &str, lang: Lang) -> Before {
    let note = told::unrelated_calculation(None, Some("search_docs"), lang.into());
    let mut before = searched("chain of thought", result);
    before.calls.push(PastCall {
        tool: "calculator".into(),
        role: Some(reactloop::tools::Role::Computes),
        args: json!({"expression": "1 + 1"}),
        observation: format!("2\n{note}"),
        succeeded: true,
        repeats: 0,
    });
    before.notes = vec![note];
    before
}

const FAISS: &str = "[1] FAISS: FAISS is an open-source library from Meta for similarity search.";
const MCP: &str = "[1] MCP: The Model Context Protocol was introduced by Anthropic in 2024.";

/// A search for `question` found `result`.
fn found_for(question: &'static str, result: &str) -> Before {
    Before {
        question,
        ..ran("search_docs", json!({ "query": "FAISS" }), result)
    }
}

const COT: &str =
    "[1] Chain-of-thought prompting: Simply adding \"Let's think step by step\" also helps.";

#[test]
fn a_reply_means_what_the_run_makes_of_it() {
    let registry = Registry::with_builtins(default_documents());
    let fin = |input: &str| format!("Thought: done\nAction: final_answer\nAction Input: {input}");
    let answer = |a: &str| Parsed::Final { answer: a.into() };
    let error = |error: FormatError| Parsed::Error { error };
    let cases: Vec<(&str, String, Before, Parsed, Option<Repair>)> = vec![
        (
            "the input alone, right after an empty final answer, completes it",
            "Action Input: 42".into(),
            Before {
                after_empty_answer: true,
                ..NOTHING()
            },
            answer("42"),
            None,
        ),
        (
            "asked only for the answer, plain sentences are the answer (their first paragraph)",
            "6 * 7 is 42.\n\nLet me know if you need more.".into(),
            ANSWER_ASKED(),
            answer("6 * 7 is 42."),
            Some(Repair::ProseAsAnswer),
        ),
        (
            "plain sentences when the request did not ask for the answer are a format error",
            "6 * 7 is 42.".into(),
            NOTHING(),
            error(FormatError::NoAction),
            None,
        ),
        (
            "asked only for the answer, a call is still a call",
            "Thought: t\nAction: calculator\nAction Input: {\"expression\": \"6 * 7\"}".into(),
            ANSWER_ASKED(),
            Parsed::Action {
                tool: "calculator".into(),
                input: json!({"expression": "6 * 7"}),
            },
            None,
        ),
        (
            "asked only for the answer, the question given back is not one",
            fin("What is 6 * 7?"),
            ANSWER_ASKED(),
            error(FormatError::QuestionRepeated),
            None,
        ),
        (
            "asked only for the answer, the model's own search query given back is not one",
            fin("library founded year"),
            searched(
                "library founded year",
                "[1] History: The library was founded in 1901.",
            ),
            error(FormatError::QuestionRepeated),
            None,
        ),
        (
            "asked for the answer, the question's expression given back is still a calculation",
            fin("6 * 7"),
            ANSWER_ASKED(),
            Parsed::Action {
                tool: "calculator".into(),
                input: json!({"expression": "6 * 7"}),
            },
            Some(Repair::ExpressionRunAsCall),
        ),
        (
            "a few words of the question can be the answer",
            fin("6"),
            ANSWER_ASKED(),
            answer("6"),
            None,
        ),
        (
            "words an Observation holds can be the answer",
            fin("founded in 1901"),
            searched(
                "founded in 1901",
                "[1] History: The library was founded in 1901.",
            ),
            answer("founded in 1901"),
            None,
        ),
        (
            "the question's subject alone, after a search that read the answer, is no answer",
            fin("The answer is FAISS."),
            found_for("Which company released FAISS?", FAISS),
            error(FormatError::QuestionRepeated),
            None,
        ),
        (
            "nor in Chinese: the question's own characters",
            fin("答案是 MCP 的文档。"),
            found_for("根据文档，MCP 是哪家公司提出的？", MCP),
            error(FormatError::QuestionRepeated),
            None,
        ),
        (
            "nor is the question's own number, which no computation gave",
            fin("The answer is 2077"),
            Before {
                question: "What is the status of my order 2077?",
                ..ran("order_status", json!({"order_id": "2077"}), "Order 2077: processing.")
            },
            error(FormatError::QuestionRepeated),
            None,
        ),
        (
            "the question's words again, once sent back: the last result found is the answer",
            fin("The answer is 2077"),
            Before {
                question: "What is the status of my order 2077?",
                question_noted: true,
                notes: vec!["(Next, compute the answer.)".into()],
                ..ran(
                    "order_status",
                    json!({"order_id": "2077"}),
                    "Order 2077: processing.\n(Next, compute the answer.)",
                )
            },
            answer("Order 2077: processing."),
            Some(Repair::ResultAsAnswer),
        ),
        (
            "and at the last step, with no step left to send it back",
            fin("答案是 MCP 的文档。"),
            Before {
                last_step: true,
                ..found_for("根据文档，MCP 是哪家公司提出的？", MCP)
            },
            answer(MCP),
            Some(Repair::ResultAsAnswer),
        ),
        (
            "an answer of its own, once sent back, stands",
            fin("The answer is shipped"),
            Before {
                question: "What is the status of my order 2077?",
                question_noted: true,
                ..ran("order_status", json!({"order_id": "2077"}), "Order 2077: processing.")
            },
            answer("The answer is shipped"),
            None,
        ),
        (
            "after a computation, a number of the question is for the result check to read",
            fin("The answer is 5"),
            Before {
                question: "What is 5 * 1?",
                ..calc_ran("5 * 1", "5")
            },
            answer("The answer is 5"),
            None,
        ),
        (
            "a name of the question no call used: the step for it was left out",
            fin("The answer is 5550203"),
            Before {
                question: "How many more people live in Norway than in Iceland?",
                ..ran("country_population", json!({"country": "Norway"}), "Norway: 5550203 people.")
            },
            error(FormatError::NameUnused {
                name: "Iceland".into(),
                tool: "country_population".into(),
                param: "country".into(),
            }),
            None,
        ),
        (
            "a name the search result holds is used",
            fin("The answer is 5550203"),
            Before {
                question: "How many more people live in Norway than in Iceland?",
                ..ran(
                    "country_population",
                    json!({"country": "norway"}),
                    "Norway: 5550203 people; Iceland: 387758.",
                )
            },
            answer("The answer is 5550203"),
            None,
        ),
        (
            "no call was given a name of the question as a whole: nothing to repeat",
            fin("The answer is 5550203"),
            Before {
                question: "How many more people live in Norway than in Iceland?",
                ..searched("Norway population", "Norway: 5550203 people.")
            },
            answer("The answer is 5550203"),
            None,
        ),
        (
            "a word of its own is an answer",
            fin("The answer is Meta."),
            found_for("Which company released FAISS?", FAISS),
            answer("The answer is Meta."),
            None,
        ),
        (
            "a question that offers its answers may get one of them back",
            fin("The answer is FAISS."),
            found_for("Which is older, FAISS or MCP?", &format!("{FAISS}\n{MCP}")),
            answer("The answer is FAISS."),
            None,
        ),
        (
            "and so may a question of yes or no",
            fin("Meta"),
            found_for("Did Meta release FAISS?", FAISS),
            answer("Meta"),
            None,
        ),
        (
            "said back once, the same again: the search's result is the answer",
            fin("The answer is FAISS."),
            Before {
                question_noted: true,
                ..found_for("Which company released FAISS?", FAISS)
            },
            answer(FAISS),
            Some(Repair::ResultAsAnswer),
        ),
        (
            "the question given back is no answer, asked for or not",
            fin("What is 6 * 7?"),
            NOTHING(),
            error(FormatError::QuestionRepeated),
            None,
        ),
        (
            "nor is it after a constraint's opening words",
            fin("The answer is What is 6 * 7?"),
            NOTHING(),
            error(FormatError::QuestionRepeated),
            None,
        ),
        (
            "a call of another tool than the one its Thought chose",
            "Thought: To answer this, I need current_time for today.\nAction: search_docs\nAction Input: {\"query\": \"today\"}".to_string(),
            NOTHING(),
            error(FormatError::ActionNotThought {
                chosen: "current_time".into(),
                action: "search_docs".into(),
            }),
            None,
        ),
        (
            "the same call, steered to by the request: the constraint chose, not the model",
            "Thought: To answer this, I need current_time for today.\nAction: search_docs\nAction Input: {\"query\": \"today\"}".to_string(),
            Before {
                allowed_only: Some("search_docs"),
                ..NOTHING()
            },
            Parsed::Action {
                tool: "search_docs".into(),
                input: json!({"query": "today"}),
            },
            None,
        ),
        (
            "a Thought that names the tool it calls, beside another, is its own choice",
            "Thought: Not current_time: search_docs has it.\nAction: search_docs\nAction Input: {\"query\": \"today\"}".to_string(),
            NOTHING(),
            Parsed::Action {
                tool: "search_docs".into(),
                input: json!({"query": "today"}),
            },
            None,
        ),
        (
            "a Thought that reads a tool's result names a tool already called",
            "Thought: current_time gave the date.\nAction: calculator\nAction Input: {\"expression\": \"2025 - 1969\"}".to_string(),
            clock_ran("How many years since 1969?"),
            Parsed::Action {
                tool: "calculator".into(),
                input: json!({"expression": "2025 - 1969"}),
            },
            None,
        ),
        (
            "a name inside a longer word is not the tool's",
            "Thought: I need a my_current_time_zone.\nAction: search_docs\nAction Input: {\"query\": \"zone\"}".to_string(),
            NOTHING(),
            Parsed::Action {
                tool: "search_docs".into(),
                input: json!({"query": "zone"}),
            },
            None,
        ),
        (
            "a word of the format is no answer",
            fin("The answer is Observation."),
            NOTHING(),
            error(FormatError::LabelAsAnswer {
                label: "Observation".into(),
            }),
            None,
        ),
        (
            "nor in Chinese",
            fin("答案是观察结果。"),
            NOTHING(),
            error(FormatError::LabelAsAnswer {
                label: "观察结果".into(),
            }),
            None,
        ),
        (
            "an answer that holds the word as part of a sentence stands",
            fin("The answer is the observation deck on floor 86."),
            NOTHING(),
            Parsed::Final {
                answer: "The answer is the observation deck on floor 86.".into(),
            },
            None,
        ),
        (
            "the loop's note given back is no answer",
            fin("The answer is Answer with what the search_docs result above says."),
            noted(COT, Lang::En),
            error(FormatError::NoteCopied),
            None,
        ),
        (
            "nor in Chinese",
            fin("答案是请用上面 search_docs 的结果作答。"),
            noted(COT, Lang::Zh),
            error(FormatError::NoteCopied),
            None,
        ),
        (
            "feedback given back is no answer either",
            fin("Write the answer itself, from the Observations above"),
            Before {
                notes: vec!["That only repeats the question; it is not an answer. Write the answer itself, from the Observations above, as the Action Input of 'Action: final_answer'.".into()],
                ..NOTHING()
            },
            error(FormatError::NoteCopied),
            None,
        ),
        (
            "what the tool found beside the note is an answer",
            fin("The answer is \"Let's think step by step\""),
            noted(COT, Lang::En),
            answer("The answer is \"Let's think step by step\""),
            None,
        ),
        (
            "words a tool's result and a note both hold are the tool's",
            fin("Answer with what the search_docs result above says"),
            noted("Answer with what the search_docs result above says, said the manual.", Lang::En),
            answer("Answer with what the search_docs result above says"),
            None,
        ),
        (
            "a short answer that a note happens to hold stands",
            fin("search_docs result"),
            noted(COT, Lang::En),
            answer("search_docs result"),
            None,
        ),
        (
            "an example's answer without its full stop is still the example's",
            fin("(7 + 5) * 3 is 36"),
            NOTHING(),
            error(FormatError::ExampleCopied),
            None,
        ),
        (
            "asked only for the answer, a Thought alone is not one",
            "Thought: I need to compute 6 * 7.".into(),
            ANSWER_ASKED(),
            error(FormatError::ThoughtOnly),
            None,
        ),
        (
            "the input alone at any other time is a format error",
            "Action Input: 42".into(),
            NOTHING(),
            error(FormatError::InputWithoutAction),
            None,
        ),
        (
            "arguments the tool can run, and no call answered yet: the call meant",
            fin(r#"{"expression": "2+2"}"#),
            NOTHING(),
            Parsed::Action {
                tool: "calculator".into(),
                input: json!({"expression": "2+2"}),
            },
            Some(Repair::ArgumentsRunAsCall),
        ),
        (
            "the arguments of a call that succeeded: its result is the answer",
            fin(r#"{"expression": "2+2"}"#),
            calc_ran("2+2", "4"),
            answer("4"),
            Some(Repair::AnswerFromEarlierCall),
        ),
        (
            "arguments the tool cannot run: neither answer nor call",
            fin(r#"{"expression": "2+"}"#),
            NOTHING(),
            error(FormatError::ArgumentsAsAnswer {
                tool: "calculator".into(),
            }),
            None,
        ),
        (
            "a value an Observation showed, under a tool's key, is the answer",
            fin(r#"{"expression": "4"}"#),
            calc_ran("2+2", "4"),
            answer("4"),
            Some(Repair::AnswerUnwrapped),
        ),
        (
            "an expression for an answer, not its value: the calculator runs it",
            fin("The answer is 2^13 - 3^7."),
            NOTHING(),
            Parsed::Action {
                tool: "calculator".into(),
                input: json!({"expression": "2^13 - 3^7"}),
            },
            Some(Repair::ExpressionRunAsCall),
        ),
        (
            "a JSON-schema answer (the text alone) with a function call in it",
            "{\"thought\": \"t\", \"action\": \"final_answer\", \"action_input\": \"答案是 sqrt(2) * 3\"}".into(),
            NOTHING(),
            Parsed::Action {
                tool: "calculator".into(),
                input: json!({"expression": "sqrt(2) * 3"}),
            },
            Some(Repair::ExpressionRunAsCall),
        ),
        (
            "an expression the calculator already worked out: its result is the answer",
            fin("348 * 27 - 1592 / 8"),
            calc_ran("348 * 27 - 1592 / 8", "9197"),
            answer("9197"),
            Some(Repair::AnswerFromEarlierCall),
        ),
        (
            "an expression at the last step: no step is left for the call, its value is the answer",
            fin("答案是 360 * 15 / 100"),
            LAST_STEP(),
            answer("54"),
            Some(Repair::ExpressionEvaluated),
        ),
        (
            "a date, a range or a plain number is not an expression",
            fin("2025-03-14"),
            NOTHING(),
            answer("2025-03-14"),
            None,
        ),
        (
            "a range of years stands",
            fin("The answer is 1990-2000."),
            NOTHING(),
            answer("The answer is 1990-2000."),
            None,
        ),
        (
            "words around the numbers: an answer",
            fin("The answer is 12 * 7 = 84."),
            NOTHING(),
            answer("The answer is 12 * 7 = 84."),
            None,
        ),
        (
            "plain text stays the answer",
            fin("It is 4."),
            calc_ran("2+2", "4"),
            answer("It is 4."),
            None,
        ),
        (
            "the worked example's answer, copied: not an answer",
            fin("(7 + 5) * 3 is 36."),
            calc_ran("2+2", "4"),
            error(FormatError::ExampleCopied),
            None,
        ),
        (
            "the example's answer, when an Observation of this run showed it, stands",
            fin("(7 + 5) * 3 is 36."),
            calc_ran("(7+5)*3", "(7 + 5) * 3 is 36."),
            answer("(7 + 5) * 3 is 36."),
            None,
        ),
        (
            "the worked example's call, copied: not this question's",
            "Action: calculator\nAction Input: {\"expression\": \"(7 + 5) * 3\"}".into(),
            NOTHING(),
            error(FormatError::ExampleCopied),
            None,
        ),
        (
            "the same call with the question's own numbers is a call",
            "Action: calculator\nAction Input: {\"expression\": \"6 * 7\"}".into(),
            NOTHING(),
            Parsed::Action {
                tool: "calculator".into(),
                input: json!({"expression": "6 * 7"}),
            },
            None,
        ),
        (
            "an answer after the first of two steps, with a number of the question unused, is not one yet",
            fin("The answer is Friday, 14 March 2025"),
            clock_ran("How many years have passed since 1969?"),
            error(FormatError::NumberUnused {
                number: "1969".into(),
            }),
            None,
        ),
        (
            "the same in Chinese, the number before a unit",
            fin("答案是 5"),
            clock_ran("100 天之后是星期几？"),
            error(FormatError::NumberUnused {
                number: "100".into(),
            }),
            None,
        ),
        (
            "a number that says how precise the answer is, is no step left out",
            fin("The answer is 7.071"),
            Before {
                question: "What is the square root of 50, rounded to 3 decimal places?",
                ..calc_ran("sqrt(50)", "7.07106781187")
            },
            answer("The answer is 7.071"),
            None,
        ),
        (
            "and in the plural",
            fin("The answer is 1.41"),
            Before {
                question: "What is the square root of 2, to 2 decimals?",
                ..calc_ran("sqrt(2)", "1.41421356237")
            },
            answer("The answer is 1.41"),
            None,
        ),
        (
            "the same in Chinese",
            fin("答案是 31.42"),
            Before {
                question: "直径为 10 的圆，周长是多少？保留 2 位小数。",
                ..calc_ran("10 * pi", "31.4159265359")
            },
            answer("答案是 31.42"),
            None,
        ),
        (
            "an answer right after a calculation that gives none of its results misread it",
            fin("答案是 5"),
            Before {
                question: "625 的平方根是多少？",
                ..calc_ran("sqrt(625)", "25")
            },
            error(FormatError::ResultMissed {
                result: "25".into(),
            }),
            None,
        ),
        (
            "the number sent to the calculator is not its result either",
            fin("The answer is 2"),
            Before {
                question: "What is the logarithm of 1024 to base 2?",
                ..calc_ran("log(1024, 2)", "10")
            },
            error(FormatError::ResultMissed {
                result: "10".into(),
            }),
            None,
        ),
        (
            "a number the calculation took, even after a later call, is not its result",
            fin("答案是 48.20 USD (2025-03-14 12:00 UTC)"),
            Before {
                question: "买 25 股 GLOBX 要花多少美元？",
                calls: {
                    let price = "GLOBX: 48.20 USD (2025-03-14 12:00 UTC).";
                    let looked_up = ran("stock_price", json!({"ticker": "GLOBX"}), price).calls;
                    let computed = calc_ran("25 * 48.20", "1205").calls;
                    [looked_up.clone(), computed, looked_up].concat()
                },
                ..NOTHING()
            },
            error(FormatError::ResultMissed {
                result: "1205".into(),
            }),
            None,
        ),
        (
            "the result rounded up to a whole number is the result",
            fin("The answer is 15 days."),
            Before {
                question: "A book has 356 pages; reading 24 a day, how many days at least?",
                ..calc_ran("356 / 24", "14.8333333333")
            },
            answer("The answer is 15 days."),
            None,
        ),
        (
            "the result as a percentage is the result",
            fin("The answer is 25%."),
            Before {
                question: "What share of 80 is 20?",
                ..calc_ran("20 / 80", "0.25")
            },
            answer("The answer is 25%."),
            None,
        ),
        (
            "an answer in words, without numbers, is not checked against the result",
            fin("Yes, it is larger."),
            Before {
                question: "Is 2^10 larger than 1000?",
                ..calc_ran("2^10 - 1000", "24")
            },
            answer("Yes, it is larger."),
            None,
        ),
        (
            "said once, an answer without the result stands",
            fin("The answer is 2"),
            Before {
                question: "What is the logarithm of 1024 to base 2?",
                result_noted: true,
                ..calc_ran("log(1024, 2)", "10")
            },
            answer("The answer is 2"),
            None,
        ),
        (
            "after a search, the answer is not checked against a calculation",
            fin("The answer is 4."),
            ran("search_docs", json!({"query": "token"}), "[1] Tokens: about four characters"),
            answer("The answer is 4."),
            None,
        ),
        (
            "said once, the same answer stands",
            fin("The answer is Friday, 14 March 2025"),
            Before {
                number_noted: true,
                ..clock_ran("How many years have passed since 1969?")
            },
            answer("The answer is Friday, 14 March 2025"),
            None,
        ),
        (
            "a run a person edited follows their course: the unused number is theirs",
            fin("The answer is Friday, 14 March 2025"),
            Before {
                steered: true,
                ..clock_ran("How many years have passed since 1969?")
            },
            answer("The answer is Friday, 14 March 2025"),
            None,
        ),
        (
            "a number a call used is used",
            fin("The answer is 56."),
            Before {
                question: "How many years have passed since 1969?",
                ..calc_ran("2025 - 1969", "56")
            },
            answer("The answer is 56."),
            None,
        ),
        (
            "a number the answer holds is used (written with a group comma)",
            fin("It was 1,969 days."),
            Before {
                question: "What is 1969 days from now?",
                ..ran("current_time", json!({}), CLOCK)
            },
            answer("It was 1,969 days."),
            None,
        ),
        (
            "a number an Observation holds is used (the date the clock gave)",
            fin("The answer is Friday."),
            clock_ran("What weekday is 14 March?"),
            answer("The answer is Friday."),
            None,
        ),
        (
            "with no tool run yet, an answer is not checked for the question's numbers",
            fin("It is 42."),
            NOTHING(),
            answer("It is 42."),
            None,
        ),
        (
            "on the last step, the answer stands",
            fin("The answer is Friday, 14 March 2025"),
            Before {
                last_step: true,
                ..clock_ran("How many years have passed since 1969?")
            },
            answer("The answer is Friday, 14 March 2025"),
            None,
        ),
        (
            "a digit in a name is not a number of the question",
            fin("It is a small model."),
            Before {
                question: "What is Qwen2 good at?",
                ..ran("search_docs", json!({"query": "Qwen"}), "[1] Qwen: a family of models.")
            },
            answer("It is a small model."),
            None,
        ),
        (
            "a label copied into the answer is taken out, with its quotes",
            fin("The answer is \"Observation: Friday, 14 March 2025\""),
            NOTHING(),
            answer("The answer is Friday, 14 March 2025"),
            Some(Repair::CopiedLabelRemoved),
        ),
        (
            "the same without quotes, in Chinese",
            fin("答案是 Observation：2025年3月14日"),
            NOTHING(),
            answer("答案是 2025年3月14日"),
            Some(Repair::CopiedLabelRemoved),
        ),
        (
            "a label that is all the answer holds is left for the other checks",
            fin("Thought:"),
            NOTHING(),
            answer("Thought:"),
            None,
        ),
        (
            "a word that only begins like a label stays",
            fin("Actions speak louder."),
            NOTHING(),
            answer("Actions speak louder."),
            None,
        ),
        (
            "an answer that only contains the example's numbers stands",
            fin("It is 36."),
            NOTHING(),
            answer("It is 36."),
            None,
        ),
        (
            "an object with no tool's keys stays as written",
            fin(r#"{"city": "Paris", "country": "France"}"#),
            NOTHING(),
            answer(r#"{"city": "Paris", "country": "France"}"#),
            None,
        ),
    ];
    let examples = Examples::of(&[FewShot {
        question: "What is (7 + 5) * 3?".into(),
        transcript: "Thought: compute\nAction: calculator\nAction Input: {\"expression\": \"(7 + 5) * 3\"}\nObservation: 36\nThought: done\nAction: final_answer\nAction Input: (7 + 5) * 3 is 36.".into(),
    }]);
    for (why, reply, before, want, repair) in cases {
        let observations: Vec<&str> = before
            .calls
            .iter()
            .map(|c| c.observation.as_str())
            .collect();
        let notes: Vec<&str> = before.notes.iter().map(String::as_str).collect();
        let run = RunSoFar {
            registry: &registry,
            calls: &before.calls,
            observations: &observations,
            after_empty_answer: before.after_empty_answer,
            answer_asked: before.answer_asked,
            last_step: before.last_step,
            sent_back: SentBack {
                number: before.number_noted,
                result: before.result_noted,
                question: before.question_noted,
            },
            steered: before.steered,
            allowed_only: before.allowed_only,
            notes: &notes,
            examples: &examples,
            question: before.question,
        };
        let got = in_context(parse_reply(&reply), &reply, &run);
        assert_eq!(got.parsed, want, "{why}");
        if let Some(repair) = repair {
            assert!(got.repairs.contains(&repair), "{why}: {:?}", got.repairs);
        }
    }
}

#[test]
fn numbers_are_read_as_a_reader_would_compare_them() {
    use reactloop::reading::{facts, mentions_number, numbers};
    let cases: &[(&str, &[&str])] = &[
        ("since 1969", &["1969"]),
        ("(17 + 8) * 4 / 5", &["17", "8", "4", "5"]),
        ("1,000.50 and 3.0", &["1000.5", "3"]),
        ("１００ 天", &["100"]),
        ("1,2,3", &["1", "2", "3"]),
        ("Qwen2.5 3D 2nd x2", &[]),
        ("UTC+08:00", &["8", "0"]),
        ("0.25 and 007", &["0.25", "7"]),
        ("2025-03-14", &["2025", "3", "14"]),
    ];
    for (text, want) in cases {
        assert_eq!(numbers(text), *want, "{text}");
    }
    // A result's facts leave out a date's and a time's parts, not a range or a sum.
    for (text, want) in [
        ("ACME: 123.45 USD (2025-03-14 12:00 UTC).", &["123.45"][..]),
        ("shipped on 2025/03/12, 3 items, 58.40 EUR", &["3", "58.4"]),
        ("Friday, 14 March 2025, 12:00:00", &["14", "2025"]),
        ("10-20 people, 5 - 3 = 2", &["10", "20", "5", "3", "2"]),
    ] {
        assert_eq!(facts(text), want, "{text}");
    }
    for (text, has) in [
        ("What is the capital of France?", false),
        ("中国的首都是哪座城市？", false),
        ("What is half of seven?", true),
        ("一个星期有几天？", true),
        ("What is 2 + 2?", true),
        ("Who wrote Hamlet?", false),
    ] {
        assert_eq!(mentions_number(text), has, "{text}");
    }
}
