// Types of the plain objects that cross the JS boundary (README.md documents them too).

export interface Settings {
  /** The scripted demo model instead of a server. */
  demo?: boolean;
  /** Milliseconds between the demo model's streamed pieces (0: at once). */
  demoDelayMs?: number;
  /** The model is the function given to `useModel` (the in-page engine): no baseUrl. */
  inPage?: boolean;
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  temperature?: number;
  maxTokens?: number;
  stream?: boolean;
  seed?: number;
  /** 60000 by default. */
  timeoutMs?: number;
  constrained?: 'off' | 'json_object' | 'json_schema' | 'grammar';
  lang?: 'en' | 'zh';
  /** A prompt template with {tools} and {tool_names}. */
  template?: string;
  /** Replaces the generated system prompt. */
  systemPrompt?: string;
  fewShot?: { question: string; transcript: string }[];
  maxSteps?: number;
  maxFormatErrors?: number;
  maxRepeats?: number;
  observationLimit?: number;
  historyRounds?: number;
  restateQuestion?: boolean;
  style?: 'chat' | 'scratchpad';
  stop?: string[];
  documents?: Document[];
  disabledTools?: string[];
}

export interface Document { title: string; text: string }

export interface ToolDefinition {
  name: string;
  description?: string;
  /** A JSON schema object. */
  parameters?: object;
  /**
   * May return a value or a promise; a throw, a rejection or a timeout becomes an observation.
   * It runs on the page's thread: a synchronous hang cannot be interrupted (worker-tool.js runs
   * code in a Worker instead). `signal` aborts once the agent stops waiting for this call.
   */
  run: (args: any, options: { signal: AbortSignal }) => unknown;
  /** 10000 by default. */
  timeoutMs?: number;
}

export interface ToolSpec { name: string; description: string; parameters: object }

/** Replaces the model's reply or the tool's result of the pending step. */
export interface Edit {
  reply?: string;
  observation?: string;
  usage?: Usage;
  elapsedMs?: number;
  /** Whether a person changed the reply (true when omitted). */
  edited?: boolean;
}

export interface Message { role: 'system' | 'user' | 'assistant'; content: string }
/** avoid_action: a tool or final_answer that a constrained reply may not take (the one just misused). */
export interface ModelRequest { messages: Message[]; stop: string[]; avoid_action?: string }
export interface Usage { prompt_tokens: number | null; completion_tokens: number | null }
export interface ModelReply { text: string; usage: Usage; elapsed_ms: number | null; edited: boolean }
export interface ToolCall {
  tool: string;
  args: any;
  builtin: 'calculator' | 'search_docs' | 'current_time' | null;
  notes: string[];
}

export type Next =
  | { type: 'call_model'; request: ModelRequest }
  | { type: 'run_tool'; call: ToolCall }
  | { type: 'done'; outcome: Outcome };

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
  repairs: string[];
}

export interface Step {
  index: number;
  request: ModelRequest;
  reply: ModelReply | null;
  parse: Parse | null;
  call: ToolCall | null;
  observation: {
    text: string;
    source: 'tool' | 'tool_error' | 'feedback' | 'cached';
    full_chars: number;
    elapsed_ms: number | null;
    edited: boolean;
  } | null;
  guards: Guard[];
  error: ModelError | null;
  /** What a page shows for the step (in steps from events, `trace()` and `loadTrace`). */
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
  error: { message: string; hint: string | null } | null;
  spans: { thought: Span | null; action: Span | null; input: Span | null; answer: Span | null } | null;
  /** In a 'step' event: the run stopped on this step's model error, and retry() asks again. */
  can_retry?: boolean;
}

/** What a run waits for, in short (the 'next' event; the request itself is in 'request'). */
export type Pending =
  | { type: 'call_model'; step: number }
  | { type: 'run_tool'; step: number; call: ToolCall }
  | { type: 'done' };

export interface Trace {
  version: number;
  model?: string;
  question: string;
  system_prompt: string;
  tools: ToolSpec[];
  config: object;
  steps: Step[];
  outcome: Outcome | null;
  /** The outcome's sentence (in `trace()` and `loadTrace`; `exportTrace` has no view). */
  view?: { outcome: Text | null };
}

export type AgentEvent =
  | { type: 'request'; step: number; request: ModelRequest }
  | { type: 'delta'; step: number; text: string }
  /** A step seen before comes without `request`: it was in the step's 'request' event. */
  | { type: 'step'; step: Step | Omit<Step, 'request'> }
  | { type: 'tool_start'; step: number; call: ToolCall }
  | { type: 'guard'; step: number; guard: Guard; explanation: Text }
  | { type: 'notice'; step: number; message: Text }
  | { type: 'error'; step: number; error: ModelError; message: string; hint: string | null }
  | { type: 'next'; next: Pending }
  | { type: 'done'; outcome: Outcome; message: Text };

export type OnEvent = (event: AgentEvent) => void;

/** The size limits (`limits()`): a reply, a line of a stream, a trace file, a trace's steps. */
export interface Limits { replyBytes: number; streamLineBytes: number; traceBytes: number; traceSteps: number }

/**
 * A model the page supplies (`agent.useModel(fn)`), e.g. the in-page engine of www/inpage.js.
 * `body` is an OpenAI-compatible chat request as the core built it (messages, stop, max_tokens,
 * seed, and `grammar` under the grammar constraint); call `onDelta` with each streamed piece
 * and stop when `signal` aborts.
 */
export type ModelFunction = (
  body: { messages: Message[]; stop?: string[]; max_tokens?: number; grammar?: string; [key: string]: unknown },
  options: { signal: AbortSignal; onDelta: (text: string) => void },
) => Promise<{ text?: string; usage?: Partial<Usage> }>;
