//! What happens to rounds that leave the history window: dropped (`window`), or first
//! summarised by the model in a request of its own (`summary`), the summary then kept after
//! the question. A history policy, beside whichever strategy the run follows.

use crate::strategy::Compress;

#[derive(Debug, Clone)]
pub(super) enum Compression {
    Window,
    Summary {
        /// The window start the pending summary request makes room for.
        pending: Option<usize>,
        /// The latest summary of the rounds that left the window.
        latest: Option<String>,
    },
}

impl Compression {
    pub(super) fn new(compress: Compress) -> Compression {
        match compress {
            Compress::Window => Compression::Window,
            Compress::Summary => Compression::Summary {
                pending: None,
                latest: None,
            },
        }
    }

    /// Rounds before `start` are due to leave: whether a summary is asked for first. Not
    /// when one is already pending, nor when the step limit leaves no `room` after it.
    pub(super) fn summarize_first(&mut self, start: usize, room: bool) -> bool {
        match self {
            Compression::Summary { pending, .. } if pending.is_none() && room => {
                *pending = Some(start);
                true
            }
            _ => false,
        }
    }

    /// The pending request asks for a summary.
    pub(super) fn summarizing(&self) -> bool {
        matches!(
            self,
            Compression::Summary {
                pending: Some(_),
                ..
            }
        )
    }

    /// The summary came: the window start it makes room for.
    pub(super) fn take_pending(&mut self) -> Option<usize> {
        match self {
            Compression::Summary { pending, .. } => pending.take(),
            Compression::Window => None,
        }
    }

    pub(super) fn keep(&mut self, summary: String) {
        if let Compression::Summary { latest, .. } = self {
            *latest = Some(summary);
        }
    }

    pub(super) fn latest(&self) -> Option<&str> {
        match self {
            Compression::Summary { latest, .. } => latest.as_deref(),
            Compression::Window => None,
        }
    }
}
