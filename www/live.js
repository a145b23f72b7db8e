// One live run of the wasm Agent, drawn into a TraceView: start, run, step (with an edit),
// resume, retry, pause, stop, and a run adopted from elsewhere (a fork). The playground,
// Compare's columns and <react-loop> each drive their runs through it and draw only their own
// controls around it. What fails comes back as the core's error, with its `hint`.
export class LiveRun {
  /**
   * `changed()` hears of every change of `busy`, `pending` or `agent`; `problem(error)` gets
   * what a piece of work threw (null when the next piece starts: the old problem is over);
   * `event(e)` sees each of the run's events after the view has drawn it.
   * @param {import('./trace.js').TraceView} view
   * @param {{ changed?: () => void, problem?: (error: any) => void, event?: (event: import('./pkg/reactloop.js').AgentEvent) => void }} [hooks]
   */
  constructor(view, { changed = () => {}, problem = () => {}, event = () => {} } = {}) {
    this.view = view;
    this.changed = changed;
    this.problem = problem;
    this.onEvent = event;
    /** @type {import('./pkg/reactloop.js').Agent | null} */
    this.agent = null;
    /** @type {import('./pkg/reactloop.js').Pending | null} */
    this.pending = null;
    this.busy = false;
  }

  /** Started, not finished, and nothing in flight: the run waits for its next transition. */
  get waiting() { return Boolean(this.agent && !this.busy && this.pending?.type !== 'done'); }

  /** Starts `question` on `agent` (built by the caller) and draws its head; throws what agent.start throws. */
  start(agent, question) {
    this.show(agent, agent.start(question));
  }

  /** Takes over `agent`'s run as it stands, waiting for `pending`, and draws its steps so far. */
  show(agent, pending) {
    Object.assign(this, { agent, pending });
    const trace = agent.trace();
    this.view.reset(trace);
    for (const step of trace.steps) this.view.showStep(step);
    this.changed();
  }

  /** The events of this run only: a stopped run's late events must not draw into a new one. */
  events(agent = this.agent) {
    return (event) => {
      if (agent !== this.agent) return;
      if (event.type === 'next') this.pending = event.next;
      this.view.event(event);
      this.onEvent(event);
    };
  }

  /** Runs `work(agent, events)` with `busy` set; what it throws goes to `problem`. */
  async drive(work) {
    const { agent } = this;
    this.busy = true;
    this.problem(null);
    this.changed();
    try {
      await work(agent, this.events(agent));
    } catch (error) {
      if (agent === this.agent) this.problem(error);
    } finally {
      this.busy = false;
      this.changed();
    }
  }

  run() { return this.drive((agent, events) => agent.continueRun(events)); }

  /** One transition; `edit` replaces the model's reply or the tool's result. */
  step(edit) { return this.drive((agent, events) => agent.step(events, edit)); }

  /** To the end, after one transition with `edit` if there is one. */
  resume(edit) {
    return this.drive(async (agent, events) => {
      if (edit) await agent.step(events, edit);
      await agent.continueRun(events);
    });
  }

  /** Asks the model again for the failed step, then runs on. */
  retry() {
    try {
      this.view.showOutcome(null);
      this.agent.retry(this.events()); // redraws the failed step without its Retry button
    } catch (error) {
      return this.problem(error);
    }
    return this.run();
  }

  pause() { this.agent?.pause(); }

  /** Ends the run: at once when it waits, else when the transition in flight gives up. */
  stop() {
    if (!this.agent) return;
    this.agent.abort();
    if (!this.busy) {
      // No transition in flight to bring the run's last `next` event: it ended now.
      this.pending = this.agent.pending();
      this.view.showEnd(this.agent.trace());
    }
    this.changed();
  }

  /** Stops the run and lets it go (an imported trace takes the view). */
  forget() {
    this.agent?.abort();
    Object.assign(this, { agent: null, pending: null });
    this.changed();
  }
}
