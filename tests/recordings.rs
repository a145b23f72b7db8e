//! The example recordings (www/recordings/) say what the core says now: a Chinese run's notes
//! from the loop are the core's Chinese, not English kept from an older core.

use std::fs;
use std::path::Path;

use reactloop::told;
use reactloop::trace::{ObservationSource, Trace};

#[test]
fn a_reused_result_carries_the_cores_note_in_the_runs_language() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("www/recordings");
    let mut checked = 0;
    for entry in fs::read_dir(dir).expect("www/recordings") {
        let path = entry.expect("an entry").path();
        let trace = Trace::from_json(&fs::read_to_string(&path).unwrap()).expect("a recording");
        let lang = trace.config.prompt.lang;
        for step in &trace.steps {
            let (Some(o), Some(call)) = (&step.observation, &step.call) else {
                continue;
            };
            if o.source != ObservationSource::Cached {
                continue;
            }
            // The note the core appends to the earlier result, whether or not the next request
            // asks for the answer.
            let notes = [false, true]
                .map(|will_ask| told::repeated_call("", &call.tool, true, will_ask, lang.into()));
            assert!(
                notes.iter().any(|note| o.text.ends_with(note.as_str())),
                "{}, step {}: {:?} ends with none of {notes:?}",
                path.display(),
                step.index,
                &o.text[o.text.len().saturating_sub(200)..],
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "no recording reuses a result");
}
