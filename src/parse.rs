//! Placeholder: the tolerant reply parser lands here.
