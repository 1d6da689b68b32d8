//! The card's Python environments section.
