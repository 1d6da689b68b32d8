//! GitHub Actions workflow commands: one `::error`/`::warning`/`::notice`
//! line per finding, so a CI job annotates the run (and the file and line,
//! for `lint` and `explain` of a file).

use crate::finding::{Finding, Severity};

/// Workflow-command data escaping: `%`, CR and LF in the message.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Property escaping additionally covers `:` and `,`.
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

pub fn annotations(findings: &[Finding], file: Option<&str>) -> String {
    let mut out = String::new();
    for f in findings {
        let cmd = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let mut props = Vec::new();
        if let Some(file) = file {
            props.push(format!("file={}", escape_property(file)));
            if let Some(line) = f.line.filter(|l| *l > 0) {
                props.push(format!("line={line}"));
            }
        }
        props.push(format!(
            "title={}",
            escape_property(&format!("{} {}", f.code, f.name))
        ));
        let mut message = f.message.clone();
        if let Some(c) = f.fix.as_ref().and_then(|x| x.command.as_deref()) {
            message.push_str("\nfix: ");
            message.push_str(c);
        }
        out.push_str(&format!(
            "::{cmd} {}::{}\n",
            props.join(","),
            escape_data(&message)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::{Category, Fix};

    #[test]
    fn lines_are_escaped_workflow_commands() {
        let f = Finding {
            code: "DKR003".into(),
            name: "base-image, old".into(),
            category: Category::Container,
            severity: Severity::Warning,
            message: "100% wrong\nsecond line".into(),
            evidence: Vec::new(),
            kb: Vec::new(),
            fix: Some(Fix {
                command: Some("docker pull x:y".into()),
                note: None,
                actions: Vec::new(),
            }),
            line: Some(4),
        };
        let s = annotations(&[f], Some("docker/Dockerfile"));
        assert_eq!(
            s,
            "::warning file=docker/Dockerfile,line=4,title=DKR003 base-image%2C old::100%25 wrong%0Asecond line%0Afix: docker pull x:y\n"
        );
    }
}
