// Types of the plain objects that cross the JS boundary (README.md documents them too).
// tests/types.rs checks them against the Rust types: every key the settings reader reads,
// every name of the enums below, and every field of what the core gives a page.

export interface Settings {
  /** The scripted demo model instead of a server. */
  demo?: boolean;
  /** Milliseconds between the demo model's streamed pieces (0: at once). */
  demoDelayMs?: number;
  /** The model is the function given to `useModel` (the in-page engine): no baseUrl. */
  inPage?: boolean;
  /** Up to and including `/v1`, e.g. `http://localhost:11434/v1`. */
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  temperature?: number;
  maxTokens?: number;
  stream?: boolean;
  seed?: number;
  /** 60000 by default. */
  timeoutMs?: number;
  /**
   * How the server is made to keep the reply format; `auto` (the default) picks it from what
   * the server's `GET /models` says it is.
   */
  constrained?: Constrained;
  /** Under a constraint the first reply must call a tool (true by default). */
  actFirst?: boolean;
  /**
   * The loop variant: 'react' (Thought, Action, Observation; the default), 'act' (Actions
   * without Thoughts), 'cot' (reasoning, then the answer, no tools) or 'reflect' (ReAct, and
   * one self-check of the answer before it is taken) or 'plan' (a numbered plan first, then
   * ReAct; one new plan after a failed tool).
   */
  strategy?: 'react' | 'act' | 'cot' | 'plan' | 'reflect';
  /**
   * Rounds leaving the history window: 'window' (dropped; the default) or 'summary' (one
   * request first summarises the run so far, and the summary stays after the question).
   */
  compress?: 'window' | 'summary';
  /** 'en' by default. */
  lang?: 'en' | 'zh';
  /** A prompt template with {tools} and {tool_names}. */
  template?: string;
  /** Replaces the generated system prompt. */
  systemPrompt?: string;
  fewShot?: { question: string; transcript: string }[];
  /** The run's own text for some of the templates the loop sends the model (`templates()` lists them): name → text, with the same {placeholders}. */
  texts?: { [name: string]: string };
  /** Without a constraint the built-in prompt ends with worked examples (true by default). */
  workedExamples?: boolean;
  /** 8 by default. */
  maxSteps?: number;
  /** 3 by default. */
  maxFormatErrors?: number;
  /** 3 by default. */
  maxRepeats?: number;
  /** Characters of an observation the model is sent (500 by default). */
  observationLimit?: number;
  /** 6 by default. */
  historyRounds?: number;
  restateQuestion?: boolean;
  /** `auto` (the default): `chat` under a constraint, `transcript` without. */
  style?: MessageStyle;
  /** `["Observation:"]` by default. */
  stop?: string[];
  /** What `search_docs` searches. */
  documents?: Document[];
  disabledTools?: string[];
}

/** How the server is made to keep the ReAct format (`off`: the prompt alone). */

export interface Document { title: string; text: string }

export interface ToolDefinition {
  name: string;
  description?: string;
  /** A JSON schema object. */
  parameters?: object;
  /** Questions the tool answers, any language: a question like one points to the tool (the tool fit). */
  examples?: string[];
  /** Words or phrases that name what the tool is about ("weather", "天气"). */
  keywords?: string[];
  /** `computes`: it evaluates an expression, its first string parameter; none: it gives a fact. */
  role?: 'computes';
  /**
   * May return a value or a promise; a throw, a rejection or a timeout becomes an observation.
   * It runs on the page's thread: a synchronous hang cannot be interrupted (worker-tool.js runs
   * code in a Worker instead). `signal` aborts once the agent stops waiting for this call.
   */
  run: (args: any, options: { signal: AbortSignal }) => unknown;
  /** 10000 by default. */
  timeoutMs?: number;
}

/** What an answer must hold (a benchmark task's `expect`): any of the texts, or the number within `tolerance`. */
export interface Expect { any_of?: string[]; number?: number; tolerance?: number }

export interface ToolSpec { name: string; description: string; parameters: object; examples?: string[]; keywords?: string[]; role?: ToolRole }
/** A built-in tool's spec, with its description in each interface language. */
export interface BuiltinTool { name: string; description: string; parameters: object; keywords?: string[]; role: ToolRole; view: { description: Text } }

/** Replaces the model's reply or the tool's result of the pending step. */
export interface Edit {
  reply?: string;
  observation?: string;
  usage?: Usage;
  elapsedMs?: number;
  /** Whether a person changed the reply (true when omitted). */
  edited?: boolean;
}

export interface Message { role: MessageRole; content: string }
export interface ModelRequest {
  messages: Message[];
  stop: string[];
  /** A tool or final_answer that a constrained reply may not take, and why. */
  avoid?: { tool: string; why: AvoidWhy };
  /** The constraint this request goes out with, as the agent decided it for the server. */
  constrained: Constrained;
  /** A constrained reply may only be the final answer, and why. */
  must_answer?: MustAnswer;
  /** Words a constrained reply's Thought must begin with. */
  thought_prefix?: string;
  /** The Thought is exactly `thought_prefix`, and the Action comes next. */
  thought_closed?: boolean;
  /** Words a constrained final answer must begin with. */
  answer_prefix?: string;
  /** The constrained reply has no Thought (the `act` strategy). */
  no_thought?: boolean;
  /** The answer this request asks the model to check (the `reflect` strategy's self-check). */
  checks_answer?: string;
  /** The reply is to be a plan (the `plan` strategy): `Plan:` and numbered steps. */
  asks_plan?: boolean;
  /** The reply is to summarise the run so far (`compress: 'summary'`). */
  summarizes?: boolean;
  /** The one tool a constrained reply may call: the question's evidence points to it first ('fits') or next, after what ran ('next'), or the last Thought chose it and its Action called another ('thought'); `uses`: numbers of the question the steered calculation must hold; `seen`: the numbers of the question and the results, with short ones the only numbers it may hold; `args`: arguments the question fixes (the clock's `days`). */
  steer?: { tool: string; why: SteerWhy; uses?: string[]; seen?: string[]; args?: object };
  /** How well each tool fits the question, best first; on the first request only. */
  fits?: ToolFit[];
  /** Why the first reply is steered to no tool though some fit: the model chooses. */
  unsteered?: { why: 'weak'; best: string } | { why: 'split'; tools: string[] };
  /** Page tools a constrained reply may not call: nothing in the question points to them, and something was found. */
  left_out?: string[];
}
/** A tool's fit to the question: the sum of its evidence's weights. */
export interface ToolFit { tool: string; role?: ToolRole; score: number; evidence: Evidence[] }
/** What in the question points to a tool. */
export type Evidence =
  | { kind: 'described'; word: string }
  | { kind: 'source'; word: string }
  | { kind: 'name'; term: string }
  | { kind: 'in_documents'; term: string }
  | { kind: 'number'; number: string }
  | { kind: 'operation'; word: string }
  | { kind: 'quantity'; word: string }
  | { kind: 'compares'; phrase: string }
  | { kind: 'time'; word: string; now: boolean }
  | { kind: 'day'; phrase: string; days: number }
  | { kind: 'keyword'; word: string }
  | { kind: 'example'; example: string }
  | { kind: 'value'; param: string; value: string }
  | { kind: 'outranked'; word: string; by: string }
  | { kind: 'awaits'; word: string; by: string }
  | { kind: 'unfilled'; word: string; param: string }
  | { kind: 'qualifier'; word: string };
export interface Usage { prompt_tokens: number | null; completion_tokens: number | null; cached_tokens?: number | null }
export interface ModelReply { text: string; usage: Usage; elapsed_ms: number | null; edited: boolean }
export interface ToolCall {
  tool: string;
  args: any;
  builtin: Builtin | null;
  notes: string[];
}

export type Outcome =
  | { type: 'answer'; answer: string }
  | { type: 'step_limit'; steps: number; last_observation: string | null }
  | { type: 'format_errors'; count: number }
  | { type: 'repeated_calls'; tool: string }
  | { type: 'model_error'; error: ModelError }
  | { type: 'aborted' };

/** A guard that stepped in; `type` names it, the other fields depend on it. */
export interface Guard { type: string; [field: string]: unknown }
/** A failed model call; `type` is network, mixed_content, http, server, not_json, too_large, … */
export interface ModelError { type: string; [field: string]: unknown }

export interface Span { start: number; end: number }
export interface Parse {
  kind: 'action' | 'final' | 'error';
  tool?: string;
  input?: any;
  answer?: string;
  error?: { type: string; [field: string]: unknown };
  thought: string | null;
  /** Byte offsets into the reply text (UTF-8). */
  spans: { thought: Span | null; action: Span | null; input: Span | null; answer: Span | null };
  repairs: Repair[];
}

export interface Observation {
  /** Exactly what the model is sent after "Observation: ". */
  text: string;
  /** `feedback`: format feedback or a dispatch error written by the loop; `cached`: an identical earlier call's result. */
  source: ObservationSource;
  /** Characters of the full result before truncation. */
  full_chars: number;
  elapsed_ms: number | null;
  edited: boolean;
}

export interface Step {
  index: number;
  request: ModelRequest;
  reply: ModelReply | null;
  parse: Parse | null;
  call: ToolCall | null;
  observation: Observation | null;
  guards: Guard[];
  error: ModelError | null;
  /** The steps of the plan this reply wrote (the `plan` strategy). */
  plan?: string[];
  /** The summary this reply wrote of the rounds leaving the window (`compress: 'summary'`). */
  summary?: string;
  /** What a page shows for the step (in steps from events, `trace()`, `loadTrace` and `exportTrace`). */
  view?: StepView;
}

/** One sentence in each interface language. */
export interface Text { en: string; zh: string }

/** A step's sentences, and its parse's spans in UTF-16 code units (JavaScript string indices). */
export interface StepView {
  guards: Text[];
  format_error: Text | null;
  repairs: Text[];
  /** The corrections made to the tool call (`call.notes`), in each language. */
  notes: Text[];
  /** The model error's message and its fix, in each language. */
  error: { message: Text; hint: Text | null } | null;
  spans: { thought: Span | null; action: Span | null; input: Span | null; answer: Span | null } | null;
  /** Why the request leaves `request.avoid.tool` out of the reply's allowed actions. */
  avoid: Text | null;
  /** Why the request allows only the answer (`request.must_answer`). */
  must_answer: Text | null;
  /** Why the request allows only `request.steer.tool`. */
  steer: Text | null;
  /** Why the first request steers to no tool (`request.unsteered`). */
  unsteered: Text | null;
  /** Why the request leaves `request.left_out` out of the allowed actions. */
  left_out: Text | null;
  /** Each tool's fit to the question and its evidence (`request.fits`), best first. */
  fits: Text[];
  /** In a whole trace (`trace()`, `loadTrace`): the templates (`templates()`) this step's request was the first to send. */
  texts?: string[];
  /** As of this step, the newest plan's step (`index`) and how many of its items are done (a tool answered for each); null before any plan. */
  plan?: { step: number; done: number } | null;
  /** In a 'step' event: the run stopped on this step's model error, and retry() asks again. */
  can_retry?: boolean;
}

/**
 * What a run waits for: `start`, `step` and `pending` return it, and the 'next' event carries
 * it (the request itself is in the 'request' event). Under `constrained: 'auto'` the first
 * `step()` asks the server what it is, then the model.
 */
export type Pending =
  | { type: 'call_model'; step: number }
  | { type: 'run_tool'; step: number; call: ToolCall }
  | { type: 'done' };

/** What the server turned out to be under `constrained: 'auto'`, and what that chose. */
export interface ServerChoice {
  kind: ServerKind;
  constrained: Constrained;
}

export interface Trace {
  version: number;
  /** What wrote it, like `reactloop 0.2.0`; missing in traces from before 0.2.0. */
  generator?: string;
  model?: string;
  question: string;
  /** Only when `constrained` was `auto` and the server's kind was learnt. */
  server?: ServerChoice;
  system_prompt: string;
  tools: ToolSpec[];
  config: object;
  steps: Step[];
  outcome: Outcome | null;
  /** The outcome's sentence and the model's name (in `trace()`, `loadTrace` and `exportTrace`). */
  view?: { outcome: Text | null; model?: Text | null };
}

export type AgentEvent =
  | { type: 'request'; step: number; request: ModelRequest }
  | { type: 'delta'; step: number; text: string }
  /** A step seen before comes without `request`: it was in the step's 'request' event. */
  | { type: 'step'; step: Step | Omit<Step, 'request'> }
  | { type: 'tool_start'; step: number; call: ToolCall }
  | { type: 'guard'; step: number; guard: Guard; explanation: Text }
  | { type: 'notice'; step: number; message: Text }
  | { type: 'error'; step: number; error: ModelError; message: Text; hint: Text | null }
  | { type: 'next'; next: Pending }
  | { type: 'done'; outcome: Outcome; message: Text };

export type OnEvent = (event: AgentEvent) => void;

/** The size limits (`limits()`): a reply, a line of a stream, a trace file, a trace's steps. */
export interface Limits { replyBytes: number; streamLineBytes: number; traceBytes: number; traceSteps: number }

/** A text the loop sends the model (`templates()`): `{placeholders}` are filled in, `{{` is a brace. */
export interface TemplateText { name: string; en: string; zh: string; placeholders: string[] }
/** Every whole-number setting's default (`settingDefaults()`). */
export interface SettingDefaults { maxSteps: number; maxFormatErrors: number; maxRepeats: number; observationLimit: number; historyRounds: number; timeoutMs: number }

/**
 * A model the page supplies (`agent.useModel(fn)`), e.g. the in-page engine of www/inpage.js.
 * `body` is an OpenAI-compatible chat request as the core built it (messages, stop, max_tokens,
 * seed, and `grammar` under the grammar constraint); call `onDelta` with each streamed piece
 * and stop when `signal` aborts. What it throws or rejects with becomes a `page_model` error:
 * its `code` when it is 'not_loaded', 'context' or 'engine' ('aborted' is a stop), and its
 * `detail` (else its message) as its own words.
 */
export type ModelFunction = (
  body: { messages: Message[]; stop?: string[]; max_tokens?: number; grammar?: string; [key: string]: unknown },
  options: { signal: AbortSignal; onDelta: (text: string) => void },
) => Promise<{ text?: string; usage?: Partial<Usage> }>;
