//! Undo what pasting does to program output: CRLF and carriage-return
//! progress bars, tabs, ANSI colours, Markdown fences and inline backticks,
//! `<details>`/`<pre>` wrappers and HTML entities, `> ` e-mail/GitHub quoting.
//! Line numbers stay those of the original text, so every fact can cite the
//! line the user sees in their own file.

/// One cleaned line and its 1-based number in the original text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub no: usize,
    pub text: String,
}

/// A cleaned input: its label (`input`, or a file name) and its lines.
#[derive(Debug, Clone, Default)]
pub struct Doc {
    pub label: String,
    pub lines: Vec<Line>,
    /// Lines longer than [`MAX_LINE`] were cut there.
    pub truncated_lines: usize,
}

impl Doc {
    /// The source string for a fact read at original line `no`.
    pub fn src(&self, no: usize) -> String {
        format!("{} line {}", self.label, no)
    }

    /// The source for the line at index `i` of `lines`.
    pub fn src_at(&self, i: usize) -> String {
        self.lines
            .get(i)
            .map_or_else(|| format!("{} line ?", self.label), |l| self.src(l.no))
    }

    /// Trimmed text of the line at index `i`, or "" past the end.
    pub fn text(&self, i: usize) -> &str {
        self.lines.get(i).map_or("", |l| l.text.trim())
    }
}

/// Longest line kept; program output never comes close, and a cap keeps
/// every parser linear on hostile input.
pub const MAX_LINE: usize = 16 * 1024;

/// Clean pasted text into lines with their original numbers.
pub fn clean(label: &str, text: &str) -> Doc {
    let mut doc = Doc {
        label: label.to_string(),
        lines: Vec::new(),
        truncated_lines: 0,
    };
    for (i, raw) in text.split('\n').enumerate() {
        let mut line = raw.strip_suffix('\r').unwrap_or(raw);
        // A carriage return inside a line is a progress bar redrawing itself:
        // the terminal showed what came after the last one.
        if let Some(p) = line.rfind('\r') {
            line = &line[p + 1..];
        }
        if line.len() > MAX_LINE {
            let mut cut = MAX_LINE;
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            line = &line[..cut];
            doc.truncated_lines += 1;
        }
        let mut text = clean_line(line);
        if text.len() > MAX_LINE {
            // Tab expansion can grow a line; keep the cap.
            let mut cut = MAX_LINE;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text.truncate(cut);
        }
        doc.lines.push(Line { no: i + 1, text });
    }
    if text.ends_with('\n') {
        doc.lines.pop();
    }
    doc
}

/// Clean one line (no newline in it).
pub fn clean_line(line: &str) -> String {
    let needs_work = line
        .bytes()
        .any(|b| b == b'\t' || b == 0x1b || b == b'<' || b == b'&' || b == b'`' || b >= 0x80)
        || line.trim_start().starts_with('>');
    if !needs_work {
        return line.to_string();
    }
    let s = strip_controls(line);
    let s = expand_tabs(&s);
    let s = strip_quote(&s).to_string();
    let s = strip_html(&s);
    let t = s.trim_start();
    if t.starts_with("```") || t.starts_with("~~~") {
        return String::new();
    }
    strip_backticks(&s).to_string()
}

/// Remove ANSI escape sequences and control characters; turn no-break and
/// zero-width spaces into what they look like.
fn strip_controls(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => {
                // CSI: ESC [ params final-byte; other escapes: drop ESC and one char.
                if chars.peek() == Some(&'[') {
                    chars.next();
                    for c in chars.by_ref() {
                        if ('@'..='~').contains(&c) {
                            break;
                        }
                    }
                } else {
                    chars.next();
                }
            }
            '\t' => out.push('\t'),
            '\u{a0}' | '\u{2007}' | '\u{202f}' => out.push(' '),
            '\u{200b}' | '\u{feff}' => {}
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

fn expand_tabs(s: &str) -> String {
    if !s.contains('\t') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut col = 0usize;
    for c in s.chars() {
        if c == '\t' {
            let n = 8 - col % 8;
            out.extend(std::iter::repeat(' ').take(n));
            col += n;
        } else {
            out.push(c);
            col += 1;
        }
    }
    out
}

/// Strip `> ` quoting, nested or not, but never a Python prompt `>>> `.
fn strip_quote(s: &str) -> &str {
    let mut t = s;
    loop {
        let lead = t.trim_start();
        if lead.starts_with(">>>") || !lead.starts_with('>') {
            return t;
        }
        let rest = &lead[1..];
        t = rest.strip_prefix(' ').unwrap_or(rest);
    }
}

const TAGS: [&str; 16] = [
    "<details>",
    "</details>",
    "<summary>",
    "</summary>",
    "<pre>",
    "</pre>",
    "<code>",
    "</code>",
    "<br>",
    "<br/>",
    "<br />",
    "<p>",
    "</p>",
    "<b>",
    "</b>",
    "<details open>",
];

const ENTITIES: [(&str, &str); 7] = [
    ("&lt;", "<"),
    ("&gt;", ">"),
    ("&quot;", "\""),
    ("&#39;", "'"),
    ("&#x27;", "'"),
    ("&nbsp;", " "),
    ("&amp;", "&"),
];

/// Remove the HTML wrappers issue templates use and decode the entities
/// `<pre>` blocks need; any other `<...>` (`<module>`, `<stdin>`) stays.
fn strip_html(s: &str) -> String {
    let mut out = s.to_string();
    if out.contains('<') {
        for tag in TAGS {
            while let Some(p) = find_ci(&out, tag) {
                out.replace_range(p..p + tag.len(), "");
            }
        }
    }
    if out.contains('&') {
        for (e, r) in ENTITIES {
            if out.contains(e) {
                out = out.replace(e, r);
            }
        }
    }
    out
}

fn find_ci(hay: &str, needle: &str) -> Option<usize> {
    let h = hay.as_bytes();
    let n = needle.as_bytes();
    if n.len() > h.len() {
        return None;
    }
    (0..=h.len() - n.len()).find(|&i| h[i..i + n.len()].eq_ignore_ascii_case(n))
}

/// A whole line wrapped in single backticks (`` `RuntimeError: ...` ``).
fn strip_backticks(s: &str) -> &str {
    let t = s.trim();
    if t.len() >= 2 && t.starts_with('`') && t.ends_with('`') {
        let inner = &t[1..t.len() - 1];
        if !inner.contains('`') {
            return inner;
        }
    }
    s
}

/// If `line` is a shell prompt with a command, the command: `$ nvidia-smi`,
/// `user@host:~$ nvcc -V`, `(venv) PS C:\> nvidia-smi`, `# cat /proc/...`,
/// `C:\Users\me> nvidia-smi`.
pub fn prompt_command(line: &str) -> Option<&str> {
    let t = line.trim();
    if let Some(rest) = t.strip_prefix("$ ").or_else(|| t.strip_prefix("# ")) {
        return Some(rest.trim()).filter(|r| !r.is_empty());
    }
    // `user@host:~/dir$ cmd`, `(env) user@host:~$ cmd`, `[root@host ~]# cmd`
    for marker in ["$ ", "# ", "> "] {
        if let Some(p) = t.find(marker) {
            if is_prompt_head(&t[..p]) {
                let cmd = t[p + marker.len()..].trim();
                if !cmd.is_empty() {
                    return Some(cmd);
                }
            }
        }
    }
    None
}

fn is_prompt_head(head: &str) -> bool {
    let mut h = head.trim();
    // A conda/venv marker: `(base) `.
    if h.starts_with('(') {
        if let Some(p) = h.find(") ") {
            h = h[p + 2..].trim_start();
        }
    }
    if h.starts_with("PS ") {
        return true;
    }
    if h.starts_with('[') && h.ends_with(']') && h.contains('@') {
        return true;
    }
    !h.is_empty() && !h.contains(' ') && (h.contains('@') || h.contains(":\\") || h.ends_with('~'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(d: &Doc) -> Vec<&str> {
        d.lines.iter().map(|l| l.text.as_str()).collect()
    }

    #[test]
    fn crlf_fences_quotes_and_details() {
        let raw = "<details><summary>env</summary>\r\n\r\n> ```\r\n> PyTorch version: 2.5.1+cu124\r\n> > Is CUDA available: True\r\n> ```\r\n</details>\r\n";
        let d = clean("input", raw);
        assert_eq!(
            texts(&d),
            [
                "env",
                "",
                "",
                "PyTorch version: 2.5.1+cu124",
                "Is CUDA available: True",
                "",
                ""
            ]
        );
        assert_eq!(d.lines[3].no, 4);
        assert_eq!(d.src(4), "input line 4");
    }

    #[test]
    fn python_prompt_is_not_a_quote() {
        let d = clean("input", "> >>> torch.cuda.is_available()\n>>> x\n");
        assert_eq!(texts(&d), [">>> torch.cuda.is_available()", ">>> x"]);
    }

    #[test]
    fn tabs_ansi_entities_progress() {
        let d = clean(
            "f",
            "Description:\tUbuntu 22.04\n\u{1b}[31mERROR\u{1b}[0m &lt;x&gt;\n10%\r50%\r100% done\n`RuntimeError: boom`",
        );
        assert_eq!(
            texts(&d),
            [
                "Description:    Ubuntu 22.04",
                "ERROR <x>",
                "100% done",
                "RuntimeError: boom"
            ]
        );
    }

    #[test]
    fn angle_brackets_in_tracebacks_stay() {
        let d = clean("input", "  File \"<stdin>\", line 1, in <module>");
        assert_eq!(texts(&d), ["  File \"<stdin>\", line 1, in <module>"]);
    }

    #[test]
    fn long_lines_are_cut() {
        let long = "é".repeat(MAX_LINE);
        let d = clean("input", &long);
        assert_eq!(d.truncated_lines, 1);
        assert!(d.lines[0].text.len() <= MAX_LINE);
        let tabs = "\t".repeat(MAX_LINE);
        assert!(clean("input", &tabs).lines[0].text.len() <= MAX_LINE);
    }

    #[test]
    fn prompts() {
        assert_eq!(prompt_command("$ nvidia-smi"), Some("nvidia-smi"));
        assert_eq!(
            prompt_command("user@box:~/x$ nvcc --version"),
            Some("nvcc --version")
        );
        assert_eq!(
            prompt_command("(base) me@gpu:~$ uname -a"),
            Some("uname -a")
        );
        assert_eq!(
            prompt_command("[root@node1 ~]# cat /proc/driver/nvidia/version"),
            Some("cat /proc/driver/nvidia/version")
        );
        assert_eq!(
            prompt_command("PS C:\\Users\\me> nvidia-smi"),
            Some("nvidia-smi")
        );
        assert_eq!(prompt_command("Is CUDA available: True"), None);
        assert_eq!(prompt_command("GPU 0: NVIDIA A100 # note"), None);
    }
}
