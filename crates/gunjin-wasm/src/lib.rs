//! The browser facade over the rules engine.
