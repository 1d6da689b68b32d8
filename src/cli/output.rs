//! The output conventions every findings command shares (`check`, `explain`,
//! `lint`, `smoke`): `--output-format`, `--json`, `--quiet`, `--exit-zero`,
//! `--fail-on`, and the colour of text printed to a terminal (`--color`).

use std::sync::OnceLock;

use anstyle::{AnsiColor, Style};

use gpucompat::finding::Severity;
use gpucompat::render::{findings, github, sarif};
use gpucompat::report::Report;
use gpucompat::rules::registry;

/// How a findings command prints its report.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// Findings for people: `severity[CODE] name: message`, evidence, fix, summary.
    #[default]
    Text,
    /// The report envelope (docs/json.md).
    Json,
    /// SARIF 2.1.0, for code-scanning services and editors.
    Sarif,
    /// GitHub Actions workflow commands (`::error`, `::warning`, `::notice`), one per finding.
    Github,
}

/// The severity that makes the exit code 1.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    /// Exit 1 when a finding is at error severity (the default).
    #[default]
    Error,
    /// Exit 1 when a finding is at warning severity or above.
    Warning,
}

/// `--output-format`, `--json`, `--quiet`, `--exit-zero`, `--fail-on`.
#[derive(Debug, Default, Clone, clap::Args)]
pub struct OutputArgs {
    /// Output format [default: text].
    #[arg(long, value_enum, value_name = "FORMAT", alias = "format")]
    pub output_format: Option<OutputFormat>,

    /// Same as --output-format json.
    #[arg(long, conflicts_with = "output_format")]
    pub json: bool,

    /// Print only the findings: nothing at all when there are none.
    #[arg(short, long)]
    pub quiet: bool,

    /// Exit 0 even when findings are at the --fail-on severity (usage and internal errors still exit 2).
    #[arg(long, conflicts_with = "fail_on")]
    pub exit_zero: bool,

    /// The lowest severity that makes the exit code 1.
    #[arg(long, value_enum, value_name = "SEVERITY")]
    pub fail_on: Option<FailOn>,
}

impl OutputArgs {
    pub fn format(&self) -> OutputFormat {
        if self.json {
            OutputFormat::Json
        } else {
            self.output_format.unwrap_or_default()
        }
    }

    /// The exit code of a report under `--exit-zero` and `--fail-on`.
    /// A report that exits 2 by itself (a smoke test that could not run)
    /// keeps its 2.
    pub fn exit_code(&self, r: &Report) -> i32 {
        let own = r.exit_code();
        if own == 2 || self.exit_zero {
            return if own == 2 { 2 } else { 0 };
        }
        let worst = match self.fail_on.unwrap_or_default() {
            FailOn::Error => Severity::Error,
            FailOn::Warning => Severity::Warning,
        };
        let fails = r.findings.iter().any(|f| match worst {
            Severity::Error => f.severity == Severity::Error,
            _ => matches!(f.severity, Severity::Error | Severity::Warning),
        });
        i32::from(fails)
    }

    /// Print the report: `text` renders the full text output of the command;
    /// `--quiet` replaces it with the findings alone.
    pub fn print(
        &self,
        r: &Report,
        verbose: bool,
        text: impl FnOnce() -> String,
    ) -> anyhow::Result<()> {
        // Exact formats go out as they are; text is made inert first and
        // styled after, so only gpucompat's own colour codes reach a terminal.
        use gpucompat::render::sanitize;
        let out = match self.format() {
            OutputFormat::Json => return super::emit_exact(&format!("{}\n", r.to_json())),
            OutputFormat::Sarif => return super::emit_exact(&format!("{:#}\n", sarif_log(r))),
            OutputFormat::Github => {
                return super::emit(&github::annotations(&r.findings, r.file.as_deref()))
            }
            OutputFormat::Text if self.quiet => {
                style(&sanitize::text(&findings::findings_text(r, verbose)))
            }
            OutputFormat::Text => style(&sanitize::text(&text())),
        };
        super::emit_exact(&out)
    }
}

/// The SARIF log of a report, each rule described from the one registry.
pub fn sarif_log(r: &Report) -> serde_json::Value {
    let describe = |code: &str| {
        registry::by_code(code).map(|rule| sarif::RuleText {
            summary: rule.summary.to_string(),
            help: rule.render_docs(),
        })
    };
    sarif::sarif(
        &r.findings,
        sarif::Artifact {
            uri: r.file.as_deref(),
        },
        &describe,
    )
}

/// `--color`: when text on stdout and stderr carries colour.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorWhen {
    /// Colour on a terminal, unless NO_COLOR is set (CLICOLOR_FORCE forces it).
    #[default]
    Auto,
    /// Always colour, even into a pipe or a file.
    Always,
    /// Never colour.
    Never,
}

static COLOR: OnceLock<anstream::ColorChoice> = OnceLock::new();

pub fn set_color(when: ColorWhen) {
    let choice = match when {
        ColorWhen::Auto => anstream::ColorChoice::Auto,
        ColorWhen::Always => anstream::ColorChoice::Always,
        ColorWhen::Never => anstream::ColorChoice::Never,
    };
    let _ = COLOR.set(choice);
}

pub fn color_choice() -> anstream::ColorChoice {
    COLOR.get().copied().unwrap_or(anstream::ColorChoice::Auto)
}

const ERROR: Style = AnsiColor::Red.on_default().bold();
const WARNING: Style = AnsiColor::Yellow.on_default().bold();
const INFO: Style = AnsiColor::Cyan.on_default().bold();
const CODE: Style = Style::new().bold();
const GUTTER: Style = AnsiColor::Blue.on_default().bold();
const FIX: Style = AnsiColor::Green.on_default().bold();

fn paint(style: Style, s: &str) -> String {
    format!("{}{s}{}", style.render(), style.render_reset())
}

/// Colour the severities, codes, locations and fixes of findings text. The
/// escape codes are stripped again on the way out unless the output is a
/// terminal that wants colour (see `emit`), so text for a pipe stays plain.
pub fn style(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for line in text.split_inclusive('\n') {
        out.push_str(&style_line(line));
    }
    out
}

fn style_line(line: &str) -> String {
    for (word, st) in [("error", ERROR), ("warning", WARNING), ("info", INFO)] {
        let Some(rest) = line.strip_prefix(word) else {
            continue;
        };
        if let Some(after) = rest.strip_prefix('[') {
            if let Some(end) = after.find(']') {
                let (code, tail) = after.split_at(end);
                return format!(
                    "{}{}{}",
                    paint(st, word),
                    paint(CODE, &format!("[{code}]")),
                    &tail[1..]
                );
            }
        }
        if let Some(tail) = rest.strip_prefix(':') {
            return format!("{}:{tail}", paint(st, word));
        }
    }
    if let Some(tail) = line.strip_prefix("  --> ") {
        return format!("  {} {tail}", paint(GUTTER, "-->"));
    }
    if let Some(tail) = line.strip_prefix("  = ") {
        return format!("  {} {tail}", paint(GUTTER, "="));
    }
    if let Some(tail) = line.strip_prefix("  fix: ") {
        return format!("  {} {tail}", paint(FIX, "fix:"));
    }
    line.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn severities_codes_and_fixes_are_styled_and_other_lines_kept() {
        let s = style("error[DRV001] x: y\n  fix: run it\nplain line\nwarning: careful\n");
        assert!(s.contains("\u{1b}[1m[DRV001]"), "{s:?}");
        assert!(s.starts_with(&ERROR.render().to_string()), "{s:?}");
        assert!(s.contains("plain line\n"));
        let plain: String = anstream::adapter::strip_str(&s).to_string();
        assert_eq!(
            plain,
            "error[DRV001] x: y\n  fix: run it\nplain line\nwarning: careful\n"
        );
    }

    #[test]
    fn a_word_that_only_starts_like_a_severity_is_not_styled() {
        assert_eq!(style("errors: 3\n"), "errors: 3\n");
        assert_eq!(style("information\n"), "information\n");
    }
}
