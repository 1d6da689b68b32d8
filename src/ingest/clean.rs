//! Undo what pasting does to program output: CRLF and carriage-return
//! progress bars, tabs, ANSI colours, Markdown fences and inline backticks,
//! `<details>`/`<pre>` wrappers and HTML entities, `> ` e-mail/GitHub quoting.
//! Line numbers stay those of the original text, so every fact can cite the
//! line the user sees in their own file.

use std::borrow::Cow;

/// One cleaned line, its 1-based number in the original text, and the
/// source string facts read from it cite (`input line 14`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line<'a> {
    pub no: usize,
    /// The cleaned text: the input's own bytes when cleaning changed nothing.
    pub text: Cow<'a, str>,
    pub src: String,
    /// Byte offset in `text` of the command when the line is a shell prompt.
    pub cmd_at: Option<usize>,
    /// Which parsers' words the line contains (see [`super::gate`]).
    pub gates: u16,
}

impl Line<'_> {
    /// True when the line carries a word of this parser's.
    pub fn gate(&self, g: super::gate::Gate) -> bool {
        self.gates & g as u16 != 0
    }

    /// The command of a shell-prompt line (`$ nvidia-smi` → `nvidia-smi`).
    pub fn command(&self) -> Option<&str> {
        self.cmd_at.and_then(|p| self.text.get(p..)).map(str::trim)
    }
}

/// A cleaned input: its label (`input`, or a file name) and its lines.
#[derive(Debug, Clone, Default)]
pub struct Doc<'a> {
    pub label: String,
    pub lines: Vec<Line<'a>>,
    /// Lines longer than [`MAX_LINE`] were cut there.
    pub truncated_lines: usize,
    /// Error catalog entries each line may match: (line index, entry index).
    pub catalog: Vec<(u32, u16)>,
    /// Settings the whole input mentions (see `errors::mentions`), computed
    /// once on first use.
    pub mentions: std::sync::OnceLock<u16>,
    /// What the whole input says by plain words (see `errors::said`),
    /// computed once on first use.
    pub said: std::sync::OnceLock<u16>,
    /// Library files a loader trace shows a package carrying (see
    /// `errors::shipped_libraries`), computed once on first use.
    pub ld_shipped: std::sync::OnceLock<Vec<String>>,
}

impl Doc<'_> {
    /// The source string for a fact read at original line `no`.
    pub fn src(&self, no: usize) -> String {
        format!("{} line {}", self.label, no)
    }

    /// The source for the line at index `i` of `lines`.
    pub fn src_at(&self, i: usize) -> &str {
        self.lines.get(i).map_or("the input", |l| l.src.as_str())
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
pub fn clean<'a>(label: &str, text: &'a str) -> Doc<'a> {
    let mut doc = Doc {
        label: label.to_string(),
        lines: Vec::new(),
        truncated_lines: 0,
        catalog: Vec::new(),
        mentions: std::sync::OnceLock::new(),
        said: std::sync::OnceLock::new(),
        ld_shipped: std::sync::OnceLock::new(),
    };
    let mut entries: Vec<u16> = Vec::new();
    let raws: Vec<&str> = text.split('\n').map(visible).collect();
    doc.lines.reserve(raws.len());
    let width = hard_wrap_width(&raws);
    let mut k = 0;
    while k < raws.len() {
        let i = k;
        // A line a terminal cut at its width continues on the next lines.
        let joined: Option<String> = width.and_then(|w| {
            let mut j = k;
            while j + 1 < raws.len() && continues(raws[j], raws[j + 1], w) {
                j += 1;
            }
            (j > k).then(|| {
                let q = quote_prefix(raws[k]);
                let mut s = String::from(raws[k]);
                for r in &raws[k + 1..=j] {
                    s.push_str(r.strip_prefix(q).unwrap_or(r));
                }
                k = j;
                s
            })
        });
        k += 1;
        let mut text: Cow<'a, str> = match &joined {
            Some(s) => Cow::Owned(clean_line(capped(s, &mut doc.truncated_lines)).into_owned()),
            None => clean_line(capped(raws[i], &mut doc.truncated_lines)),
        };
        if text.len() > MAX_LINE {
            // Tab expansion can grow a line; keep the cap.
            let cut = floor_boundary(&text, MAX_LINE);
            text.to_mut().truncate(cut);
        }
        let src = source(label, i + 1);
        let cmd_at = prompt_command(&text).map(|c| c.as_ptr() as usize - text.as_ptr() as usize);
        entries.clear();
        let gates = super::gate::scan_line(&text, &mut entries);
        entries.sort_unstable();
        entries.dedup();
        let idx = doc.lines.len() as u32;
        doc.catalog.extend(entries.iter().map(|&e| (idx, e)));
        doc.lines.push(Line {
            no: i + 1,
            text,
            src,
            cmd_at,
            gates,
        });
    }
    if text.ends_with('\n') {
        if let Some(last) = doc.lines.pop() {
            let idx = doc.lines.len() as u32;
            doc.catalog.retain(|&(l, _)| l != idx);
            let _ = last;
        }
    }
    doc
}

/// `line` cut at [`MAX_LINE`] (counting the cut in `truncated`).
fn capped<'s>(line: &'s str, truncated: &mut usize) -> &'s str {
    if line.len() > MAX_LINE {
        *truncated += 1;
        &line[..floor_boundary(line, MAX_LINE)]
    } else {
        line
    }
}

/// What a terminal showed of a raw line: no CR, only what followed the last
/// carriage return inside it (a progress bar redrawing itself).
fn visible(raw: &str) -> &str {
    let line = raw.strip_suffix('\r').unwrap_or(raw);
    match line.rfind('\r') {
        Some(p) => &line[p + 1..],
        None => line,
    }
}

fn columns(line: &str) -> usize {
    if line.is_ascii() {
        line.len()
    } else {
        line.chars().count()
    }
}

/// The width a terminal (or `fold`) hard-wrapped the paste at: the longest
/// line length, when at least two lines have exactly that length and they
/// stand out from the lengths just below it. Natural text and tables rarely
/// end many lines at the very same column without also ending some a column
/// or two short of it; tables are kept apart by [`continues`].
fn hard_wrap_width(lines: &[&str]) -> Option<usize> {
    const MIN: usize = 60;
    let mut max = 0;
    let mut at = [0usize; 3];
    for l in lines {
        let n = columns(l);
        if n < MIN {
            continue;
        }
        if n > max {
            // Counts below the old maximum no longer matter once it moves up by 3 or more.
            at = match n - max {
                1 => [0, at[0], at[1]],
                2 => [0, 0, at[0]],
                _ => [0, 0, 0],
            };
            max = n;
        }
        if let Some(d) = max.checked_sub(n).filter(|d| *d < 3) {
            at[d] += 1;
        }
    }
    if max < MIN || at[0] < 2 || at[0] < 2 * at[1].max(at[2]) + 1 {
        return None;
    }
    if at[0] >= 3 {
        return Some(max);
    }
    // Two lines of that length: a wrap when they are one line cut twice
    // (two lines of a word-wrapped paragraph can end at the same column).
    let mut at_max = lines.iter().enumerate().filter(|(_, l)| columns(l) == max);
    match (at_max.next(), at_max.next()) {
        (Some((a, _)), Some((b, _))) if b == a + 1 => Some(max),
        _ => None,
    }
}

/// The `> > ` e-mail quoting a line starts with ("" when none).
fn quote_prefix(line: &str) -> &str {
    let end = line
        .bytes()
        .position(|b| b != b'>' && b != b' ')
        .unwrap_or(line.len());
    let p = &line[..end];
    if p.contains('>') {
        p
    } else {
        ""
    }
}

/// Whether `next` is the rest of `line`, cut at column `w`.
fn continues(line: &str, next: &str, w: usize) -> bool {
    if columns(line) != w || next.trim().is_empty() {
        return false;
    }
    let start = next.strip_prefix(quote_prefix(next)).unwrap_or(next);
    let (end, start) = (line.trim_end(), start.trim_start());
    // Rows of a table of exactly this width, one below the other.
    let row_end = end.ends_with('|') || end.ends_with('+');
    let row_start = start.starts_with('|') || start.starts_with('+');
    // A line that ends as records and sentences do (`...444455556666)`,
    // `last):`) most likely ended there.
    let natural_end = end.ends_with([')', ']', '}', '"', '\'', '.', ':', ';']);
    // Records of one list (`nvidia-smi -L`, CSV rows) start alike; the rest
    // of a cut line starts anywhere in it.
    !(natural_end || row_end && row_start) && shape(line) != shape(next)
}

/// A line's indent and the character classes of its first four characters.
fn shape(line: &str) -> (usize, [u8; 4]) {
    let indent = line.len() - line.trim_start().len();
    let mut s = [0u8; 4];
    for (k, c) in line.trim_start().bytes().take(4).enumerate() {
        s[k] = match c {
            b'a'..=b'z' => b'a',
            b'A'..=b'Z' => b'A',
            b'0'..=b'9' => b'9',
            other => other,
        };
    }
    (indent, s)
}

/// `LABEL line N` without the formatting machinery (it runs once per line).
fn source(label: &str, no: usize) -> String {
    let mut digits = [0u8; 20];
    let mut n = no;
    let mut k = digits.len();
    loop {
        k -= 1;
        digits[k] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let mut s = String::with_capacity(label.len() + 6 + digits.len() - k);
    s.push_str(label);
    s.push_str(" line ");
    s.extend(digits[k..].iter().map(|&d| d as char));
    s
}

/// Which cleaning steps a line needs.
#[derive(Default)]
struct Work {
    controls: bool,
    tabs: bool,
    html: bool,
    backtick: bool,
    /// `[31m`: a colour code whose ESC was lost on the way.
    bare_sgr: bool,
}

impl Work {
    fn any(&self) -> bool {
        self.controls || self.tabs || self.html || self.backtick || self.bare_sgr
    }
}

fn needs(line: &str) -> Work {
    let b = line.as_bytes();
    let mut w = Work::default();
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'\t' => w.tabs = true,
            b'`' => w.backtick = true,
            b'&' => w.html = true,
            b'[' if is_sgr(&b[i + 1..]) => w.bare_sgr = true,
            // A tag (`<details>`, `</pre>`), not `<00:41` or `a < b`.
            b'<' if b
                .get(i + 1)
                .is_some_and(|n| n.is_ascii_alphabetic() || *n == b'/') =>
            {
                w.html = true;
            }
            0x00..=0x1f => w.controls = true,
            // NBSP (C2 A0), figure/narrow spaces and ZWSP (E2 80 ..), BOM (EF BB BF).
            0xc2 | 0xe2 | 0xef => w.controls = true,
            _ => {}
        }
    }
    w
}

/// `31m`, `1;32m`, `0m`: what follows the `[` of a colour code.
fn is_sgr(rest: &[u8]) -> bool {
    let n = rest
        .iter()
        .take_while(|c| c.is_ascii_digit() || **c == b';')
        .count();
    n > 0 && rest.get(n) == Some(&b'm')
}

/// Clean one line (no newline in it).
pub fn clean_line(line: &str) -> Cow<'_, str> {
    let w = needs(line);
    let quoted = line.trim_start().starts_with('>');
    if !w.any() && !quoted {
        // Most lines: nothing to undo, so no copy.
        return Cow::Borrowed(line);
    }
    Cow::Owned(clean_changed(line, &w))
}

/// [`clean_line`] for a line that needs some step.
fn clean_changed(line: &str, w: &Work) -> String {
    let s = if w.controls {
        strip_controls(line)
    } else {
        line.to_string()
    };
    let s = if w.tabs { expand_tabs(&s) } else { s };
    let s = if w.bare_sgr { strip_bare_sgr(&s) } else { s };
    let s = strip_quote(&s).to_string();
    let s = if w.html { strip_html(&s) } else { s };
    let t = s.trim_start();
    if t.starts_with("```") || t.starts_with("~~~") {
        // A fence line (```text) is dropped; ```nvcc -V``` shows 11.3 is inline code.
        let fence = &t[..3];
        let rest = &t[3..];
        match rest.find(fence) {
            Some(p) if !rest[..p].trim().is_empty() => {
                let inline = format!("{}{}", &rest[..p], &rest[p + 3..]);
                return inline.replace(fence, "");
            }
            // An info string is one word (```text, ```console): text of
            // several words after the fence is the first line of the block
            // (```NVIDIA GeForce RTX 5090 with CUDA capability sm_120 ...).
            None if rest.split_whitespace().nth(2).is_some() => return rest.to_string(),
            _ => return String::new(),
        }
    }
    if w.backtick {
        strip_backticks(&s).to_string()
    } else {
        s
    }
}

/// Remove ANSI escape sequences and control characters; turn no-break and
/// zero-width spaces into what they look like.
fn strip_controls(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.peek() {
                // CSI: ESC [ params final-byte.
                Some('[') => {
                    chars.next();
                    for c in chars.by_ref() {
                        if ('@'..='~').contains(&c) {
                            break;
                        }
                    }
                }
                // OSC (terminal titles, hyperlinks): ESC ] ... BEL or ESC \.
                Some(']') => {
                    chars.next();
                    while let Some(c) = chars.next() {
                        if c == '\u{7}' {
                            break;
                        }
                        if c == '\u{1b}' {
                            if chars.peek() == Some(&'\\') {
                                chars.next();
                            }
                            break;
                        }
                    }
                }
                // Other escapes: drop ESC and one char.
                _ => {
                    chars.next();
                }
            },
            '\t' => out.push('\t'),
            '\u{a0}' | '\u{2007}' | '\u{202f}' => out.push(' '),
            '\u{200b}' | '\u{feff}' => {}
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// `[0;31mERROR[0m` → `ERROR`: SGR sequences whose ESC a copy dropped.
/// Only `[` digits and semicolons `m`, at most 12 long, so `[0]` or `[10 MiB]` stay.
fn strip_bare_sgr(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'[' {
            let mut j = i + 1;
            while j < b.len() && j - i <= 12 && (b[j].is_ascii_digit() || b[j] == b';') {
                j += 1;
            }
            if j > i + 1 && b.get(j) == Some(&b'm') {
                out.push_str(&s[last..i]);
                last = j + 1;
                i = j + 1;
                continue;
            }
        }
        i += 1;
    }
    out.push_str(&s[last..]);
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

/// HTML elements issue templates and Markdown renderers wrap logs in; any
/// other `<...>` (`<module>`, `<stdin>`, `<frozen importlib>`) is text.
const TAGS: [&str; 22] = [
    "details",
    "summary",
    "pre",
    "code",
    "br",
    "p",
    "b",
    "i",
    "em",
    "strong",
    "tt",
    "kbd",
    "sub",
    "sup",
    "span",
    "div",
    "samp",
    "blockquote",
    "ul",
    "li",
    "hr",
    "img",
];

const ENTITIES: [(&str, &str); 8] = [
    ("&lt;", "<"),
    ("&gt;", ">"),
    ("&quot;", "\""),
    ("&apos;", "'"),
    ("&#39;", "'"),
    ("&#x27;", "'"),
    ("&nbsp;", " "),
    ("&amp;", "&"),
];

/// The length of an HTML tag of [`TAGS`] at the start of `rest` (`<details open>`, `</pre>`, `<br/>`).
fn tag_len(rest: &[u8]) -> Option<usize> {
    let mut i = 1;
    if rest.get(i) == Some(&b'/') {
        i += 1;
    }
    let start = i;
    while rest.get(i).is_some_and(|c| c.is_ascii_alphanumeric()) {
        i += 1;
    }
    let name = std::str::from_utf8(&rest[start..i]).ok()?;
    if !TAGS.iter().any(|t| t.eq_ignore_ascii_case(name)) {
        return None;
    }
    match rest.get(i)? {
        b'>' => Some(i + 1),
        b' ' | b'/' => {
            // Attributes: up to the closing '>' on the same line.
            let end = rest[i..].iter().take(400).position(|&c| c == b'>')?;
            Some(i + end + 1)
        }
        _ => None,
    }
}

/// `&#39;`, `&#x2F;`: a numeric character reference, decoded.
fn numeric_entity(rest: &str) -> Option<(char, usize)> {
    let body = rest.strip_prefix("&#")?;
    let end = body.find(';').filter(|&e| e > 0 && e <= 8)?;
    let digits = &body[..end];
    let n = match digits.strip_prefix(['x', 'X']) {
        Some(h) => u32::from_str_radix(h, 16).ok()?,
        None => digits.parse().ok()?,
    };
    Some((char::from_u32(n)?, end + 3))
}

/// Remove the HTML wrappers issue templates use and decode the entities
/// `<pre>` blocks need.
fn strip_html(s: &str) -> String {
    let mut out = s.to_string();
    if out.contains('<') {
        // Only look where a tag can start: at each '<'.
        let mut from = 0;
        while let Some(p) = out[from..].find('<').map(|p| p + from) {
            match tag_len(&out.as_bytes()[p..]) {
                Some(n) => out.replace_range(p..p + n, ""),
                None => from = p + 1,
            }
        }
    }
    if out.contains('&') {
        if out.contains("&#") {
            let mut dec = String::with_capacity(out.len());
            let mut rest = out.as_str();
            while let Some(p) = rest.find("&#") {
                dec.push_str(&rest[..p]);
                match numeric_entity(&rest[p..]) {
                    Some((c, n)) => {
                        dec.push(c);
                        rest = &rest[p + n..];
                    }
                    None => {
                        dec.push_str("&#");
                        rest = &rest[p + 2..];
                    }
                }
            }
            dec.push_str(rest);
            out = dec;
        }
        for (e, r) in ENTITIES {
            if out.contains(e) {
                out = out.replace(e, r);
            }
        }
    }
    out
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

/// Substring test (the parsers' gates keep it off most lines).
pub fn has(hay: &str, needle: &str) -> bool {
    hay.contains(needle)
}

/// The smallest char boundary of `s` at or above `i` (at most `s.len()`),
/// where a window of a line's last bytes may start.
pub fn ceil_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// The largest char boundary of `s` at or below `i` (at most `s.len()`),
/// where a byte limit may cut a line or a window may start.
pub fn floor_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// [`has`] ignoring ASCII case, for a lowercase `needle`, without lowering a copy of `hay`.
pub fn has_ci(hay: &str, needle: &str) -> bool {
    needle.is_empty()
        || hay
            .as_bytes()
            .windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// If `line` is a shell prompt with a command, the command: `$ nvidia-smi`,
/// `user@host:~$ nvcc -V`, `(venv) PS C:\> nvidia-smi`, `# cat /proc/...`,
/// `C:\Users\me> nvidia-smi`.
pub fn prompt_command(line: &str) -> Option<&str> {
    // Every prompt ends in one of these and a space; most lines hold none
    // (a progress bar's `|#####|` holds the mark without the space).
    if !line
        .as_bytes()
        .windows(2)
        .any(|w| matches!(w[0], b'$' | b'#' | b'>') && w[1] == b' ')
    {
        return None;
    }
    let t = line.trim();
    let b = t.as_bytes();
    // `$ cmd`, `# cmd` at the start of the line.
    if b.len() > 2 && (b[0] == b'$' || b[0] == b'#') && b[1] == b' ' {
        return Some(t[2..].trim()).filter(|r| !r.is_empty());
    }
    // Otherwise the marker ends the prompt's first word (`user@host:~$`),
    // its second after `(env) ` or `PS `, or follows `[user@host dir]`.
    let word_end = |from: usize| -> Option<usize> {
        let rest = t.get(from..)?;
        Some(from + rest.find(' ').unwrap_or(rest.len()))
    };
    let mut ends: [Option<usize>; 3] = [None; 3];
    ends[0] = word_end(0);
    if t.starts_with('(') || t.starts_with("PS ") {
        ends[1] = ends[0].and_then(|e| word_end(e + 1));
    }
    if t.starts_with('[') {
        ends[2] = t.find(']').map(|p| p + 2);
    }
    // `(py38) [0] user@host:~/dir  $ cmd`: a few prompt words, then the marker.
    if let Some(p) = t.find(" $ ").or_else(|| t.find(" # ")) {
        let head: Vec<&str> = t[..p].split_whitespace().collect();
        let decor = |w: &&str| {
            (w.starts_with('(') && w.ends_with(')')) || (w.starts_with('[') && w.ends_with(']'))
        };
        if let Some((last, before)) = head.split_last() {
            if head.len() <= 4 && before.iter().all(decor) && is_prompt_head(last) {
                let cmd = t[p + 3..].trim();
                if !cmd.is_empty() {
                    return Some(cmd);
                }
            }
        }
    }
    for e in ends.into_iter().flatten() {
        let Some(&m) = e.checked_sub(1).and_then(|i| b.get(i)) else {
            continue;
        };
        if !matches!(m, b'$' | b'#' | b'>') || b.get(e) != Some(&b' ') {
            continue;
        }
        if is_prompt_head(&t[..e - 1]) {
            let cmd = t[e + 1..].trim();
            if !cmd.is_empty() {
                return Some(cmd);
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

    fn texts<'a>(d: &'a Doc<'_>) -> Vec<&'a str> {
        d.lines.iter().map(|l| &*l.text).collect()
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
    fn text_on_an_opening_fence_is_the_block_s_first_line() {
        let d = clean(
            "input",
            "```NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible\nnext\n```\n```python\n```shell script\n",
        );
        assert_eq!(
            texts(&d),
            [
                "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible",
                "next",
                "",
                "",
                ""
            ]
        );
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
    fn osc_numeric_entities_tags_with_attributes_bare_colours() {
        let d = clean(
            "f",
            "\u{1b}]0;user@box: ~\u{7}$ nvidia-smi\n<details open><summary><b>env</b></summary>\n<pre lang=\"text\">it&#39;s &#x3C;ok&#x3E;</pre>\n[0;31mERROR[0m step [10] [3 MiB]\n",
        );
        assert_eq!(
            texts(&d),
            [
                "$ nvidia-smi",
                "env",
                "it's <ok>",
                "ERROR step [10] [3 MiB]"
            ]
        );
    }

    #[test]
    fn angle_brackets_in_tracebacks_stay() {
        let d = clean("input", "  File \"<stdin>\", line 1, in <module>");
        assert_eq!(texts(&d), ["  File \"<stdin>\", line 1, in <module>"]);
    }

    #[test]
    fn lines_cut_at_a_terminal_width_are_joined() {
        let long = "RuntimeError: The engine plan file is generated on an incompatible device, expecting compute 6.1 got compute 7.5, please rebuild and try again with the right GPU here";
        let cut: Vec<String> = long
            .as_bytes()
            .chunks(80)
            .map(|c| String::from_utf8(c.to_vec()).unwrap())
            .collect();
        let joined = cut.join("\n");
        let d = clean("input", &joined);
        assert_eq!(texts(&d), [long]);
        assert_eq!(d.lines[0].src, "input line 1");
        // Records of one width (nvidia-smi -L) and table rows stay apart.
        let list = "GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-5d5b6a2c-1111-2222-3333-444455556666)\nGPU 1: NVIDIA A100-SXM4-40GB (UUID: GPU-00000000-1111-2222-3333-444455556666)\nGPU 2: NVIDIA A100-SXM4-40GB (UUID: GPU-00000000-1111-2222-3333-444455556667)";
        assert_eq!(clean("input", list).lines.len(), 3);
        let row = format!("|{}|", " ".repeat(78));
        let table = format!("{row}\n{row}\n{row}");
        assert_eq!(clean("input", &table).lines.len(), 3);
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
    fn has_finds_substrings() {
        assert!(has("the NVIDIA-SMI banner", "NVIDIA-SMI"));
        assert!(has("NNNVIDIA", "NVIDIA"));
        assert!(!has("NVIDIA-SM", "NVIDIA-SMI"));
        assert!(has("x", ""));
        assert!(!has("", "x"));
        assert!(has("é — NVIDIA", "NVIDIA"));
    }

    #[test]
    fn source_strings() {
        assert_eq!(source("input", 1), "input line 1");
        assert_eq!(source("f.txt", 1234567), "f.txt line 1234567");
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
