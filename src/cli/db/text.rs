//! Plain aligned text for `db` answers: `label  value` lines, small tables,
//! and `[table row]` citations whose sources print with `--verbose`.

use gpucompat::finding::KbRef;

enum Line {
    Kv {
        indent: usize,
        label: String,
        value: String,
    },
    Plain(String),
    Table(Vec<Vec<String>>),
    Blank,
}

#[derive(Default)]
pub struct Text {
    lines: Vec<Line>,
    cited: Vec<KbRef>,
}

impl Text {
    /// `label  value`, labels aligned across the whole answer.
    pub fn kv(&mut self, label: impl Into<String>, value: impl Into<String>) {
        self.lines.push(Line::Kv {
            indent: 0,
            label: label.into(),
            value: value.into(),
        });
    }

    /// An indented `label  value` under a heading.
    pub fn sub(&mut self, label: impl Into<String>, value: impl Into<String>) {
        self.lines.push(Line::Kv {
            indent: 2,
            label: label.into(),
            value: value.into(),
        });
    }

    pub fn plain(&mut self, s: impl Into<String>) {
        self.lines.push(Line::Plain(s.into()));
    }

    pub fn blank(&mut self) {
        self.lines.push(Line::Blank);
    }

    /// Rows of cells, columns padded to their widest cell, indented by two.
    pub fn table(&mut self, rows: Vec<Vec<String>>) {
        if !rows.is_empty() {
            self.lines.push(Line::Table(rows));
        }
    }

    /// `[table row]`, remembered for the sources list.
    pub fn cite(&mut self, r: &KbRef) -> String {
        if !self.cited.contains(r) {
            self.cited.push(r.clone());
        }
        format!("[{} {}]", r.table, r.row)
    }

    pub fn finish(self, with_sources: bool) -> String {
        let width = self
            .lines
            .iter()
            .filter_map(|l| match l {
                Line::Kv { indent, label, .. } => Some(indent + label.chars().count()),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        let mut out = String::new();
        for line in &self.lines {
            match line {
                Line::Kv {
                    indent,
                    label,
                    value,
                } => {
                    let pad = width - indent - label.chars().count();
                    let text = format!(
                        "{}{}{}  {}",
                        " ".repeat(*indent),
                        label,
                        " ".repeat(pad),
                        value
                    );
                    out.push_str(text.trim_end());
                }
                Line::Plain(s) => out.push_str(s),
                Line::Blank => {}
                Line::Table(rows) => {
                    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
                    let widths: Vec<usize> = (0..cols)
                        .map(|c| {
                            rows.iter()
                                .filter_map(|r| r.get(c))
                                .map(|s| s.chars().count())
                                .max()
                                .unwrap_or(0)
                        })
                        .collect();
                    for (i, row) in rows.iter().enumerate() {
                        let mut s = String::from("  ");
                        for (cell, w) in row.iter().zip(&widths) {
                            s.push_str(cell);
                            s.push_str(&" ".repeat(w - cell.chars().count() + 2));
                        }
                        out.push_str(s.trim_end());
                        if i + 1 < rows.len() {
                            out.push('\n');
                        }
                    }
                }
            }
            out.push('\n');
        }
        if with_sources && !self.cited.is_empty() {
            out.push_str("\nsources:\n");
            for r in &self.cited {
                out.push_str(&format!("  [{} {}] {}\n", r.table, r.row, r.source));
            }
        }
        out
    }
}
