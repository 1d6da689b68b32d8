//! `db sources`: every source the knowledge tables cite, with the tables and
//! the number of rows that cite it.

use std::collections::BTreeMap;

use serde::Serialize;

use gpucompat::kb::Kb;

use super::text::Text;
use super::{Answer, Unknown};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Serialize)]
pub struct SourcesAnswer {
    /// Per table: its as-of date and row count.
    pub tables: Vec<TableInfo>,
    pub sources: Vec<SourceUse>,
}

#[derive(Debug, Serialize)]
pub struct TableInfo {
    pub table: String,
    pub as_of: Option<String>,
    pub rows: usize,
}

#[derive(Debug, Serialize)]
pub struct SourceUse {
    /// One source as cited (a URL or `github:owner/repo path`), split out of `a ; b` lists.
    pub source: String,
    pub tables: Vec<String>,
    pub rows: usize,
}

pub fn answer(kb: &Kb, _a: &Args) -> Result<SourcesAnswer, Unknown> {
    let all = all_tables(kb).map_err(|e| Unknown::new(e.to_string(), Vec::new()))?;
    let mut tables = Vec::new();
    let mut uses: BTreeMap<String, (Vec<String>, usize)> = BTreeMap::new();
    for (name, t) in &all {
        let name = &name.to_string();
        let rows = t["row"].as_array().cloned().unwrap_or_default();
        tables.push(TableInfo {
            table: name.clone(),
            as_of: t["meta"]["as_of"].as_str().map(str::to_string),
            rows: rows.len(),
        });
        for r in &rows {
            for s in r["source"].as_str().unwrap_or("").split(" ; ") {
                let s = s.trim();
                if s.is_empty() {
                    continue;
                }
                let e = uses.entry(s.to_string()).or_default();
                if !e.0.contains(name) {
                    e.0.push(name.clone());
                }
                e.1 += 1;
            }
        }
    }
    let sources = uses
        .into_iter()
        .map(|(source, (tables, rows))| SourceUse {
            source,
            tables,
            rows,
        })
        .collect();
    Ok(SourcesAnswer { tables, sources })
}

impl Answer for SourcesAnswer {
    fn render(&self, out: &mut Text) {
        let mut t = vec![vec!["table".to_string(), "as of".into(), "rows".into()]];
        for x in &self.tables {
            t.push(vec![
                x.table.clone(),
                x.as_of.clone().unwrap_or_else(|| "unknown".into()),
                x.rows.to_string(),
            ]);
        }
        out.table(t);
        out.blank();
        out.plain(format!("{} sources:", self.sources.len()));
        for s in &self.sources {
            out.plain(format!(
                "  {}  ({}; {} rows)",
                s.source,
                s.tables.join(", "),
                s.rows
            ));
        }
    }
}

/// Every table as JSON, by file name.
pub fn all_tables(kb: &Kb) -> serde_json::Result<Vec<(&'static str, serde_json::Value)>> {
    use serde_json::to_value as v;
    Ok(vec![
        ("apps", v(&kb.apps)?),
        ("architectures", v(&kb.architectures)?),
        ("cuda_images", v(&kb.cuda_images)?),
        ("cuda_toolkits", v(&kb.cuda_toolkits)?),
        ("cudnn", v(&kb.cudnn)?),
        ("driver_branches", v(&kb.driver_branches)?),
        ("extensions", v(&kb.extensions)?),
        ("gpus", v(&kb.gpus)?),
        ("jax", v(&kb.jax)?),
        ("mig", v(&kb.mig)?),
        ("minor_compat", v(&kb.minor_compat)?),
        ("nvcc_targets", v(&kb.nvcc_targets)?),
        ("nvidia_wheels", v(&kb.nvidia_wheels)?),
        ("onnxruntime", v(&kb.onnxruntime)?),
        ("tensorflow", v(&kb.tensorflow)?),
        ("tensorrt", v(&kb.tensorrt)?),
        ("torch_arch", v(&kb.torch_arch)?),
        ("torch_releases", v(&kb.torch_releases)?),
    ])
}
