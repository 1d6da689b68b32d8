//! Everything users read: text, JSON, Markdown. Only this module and `main` print.
pub mod card;
