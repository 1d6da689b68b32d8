//! Everything users read: text, JSON, Markdown. Only this module and `main` print.

pub mod card;
pub mod explain;
pub mod findings;
pub mod github;
pub mod labels;
pub mod package_views;
pub mod platforms;
pub mod prometheus;
pub mod python_envs;
pub mod sanitize;
pub mod sarif;
pub mod smoke;
