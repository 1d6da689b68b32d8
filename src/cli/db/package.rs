//! `db package NAME [VERSION]`: the rows of the package tables (onnxruntime,
//! tensorrt, jax, tensorflow, cudnn, nvidia wheels, compiled extensions) for
//! one package, optionally one release or series.

use serde::Serialize;
use serde_json::Value;

use gpucompat::finding::KbRef;
use gpucompat::kb::{cmp_versions, Kb};

use super::text::Text;
use super::{nearest_of, Answer, Unknown};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Package: onnxruntime, tensorrt, tensorflow, cudnn, jax, jaxlib, flash-attn, xformers, vllm, ...
    #[arg(value_name = "NAME")]
    pub name: String,
    /// A release (`0.0.28.post3`) or a series (`1.20`); every known release when absent.
    #[arg(id = "VER", value_name = "VERSION")]
    pub version: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Serialize)]
pub struct PackageAnswer {
    pub package: String,
    pub version: Option<String>,
    /// Each matching row as the table holds it, with its citation.
    pub rows: Vec<PackageRow>,
}

#[derive(Debug, Serialize)]
pub struct PackageRow {
    pub table: &'static str,
    pub facts: Value,
    pub kb: KbRef,
}

/// The package tables, as JSON rows; `named` says whether rows carry a `package` field.
fn tables(kb: &Kb) -> Vec<(&'static str, bool, Vec<Value>)> {
    fn rows<T: Serialize>(r: &[T]) -> Vec<Value> {
        r.iter()
            .filter_map(|x| serde_json::to_value(x).ok())
            .collect()
    }
    vec![
        ("onnxruntime", false, rows(&kb.onnxruntime.row)),
        ("tensorrt", false, rows(&kb.tensorrt.row)),
        ("tensorflow", false, rows(&kb.tensorflow.row)),
        ("cudnn", false, rows(&kb.cudnn.row)),
        ("jax", true, rows(&kb.jax.row)),
        ("nvidia_wheels", true, rows(&kb.nvidia_wheels.row)),
        ("extensions", true, rows(&kb.extensions.row)),
    ]
}

fn norm(s: &str) -> String {
    s.trim().to_lowercase().replace('_', "-")
}

fn str_of<'a>(v: &'a Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(Value::as_str)
}

/// A release matches itself and every release of a series it names (`1.20` -> `1.20.1`).
fn version_matches(row: &Value, want: &str) -> bool {
    let in_series = |v: &str| {
        v == want || v.starts_with(&format!("{want}.")) || v.starts_with(&format!("{want}+"))
    };
    if let Some(v) = str_of(row, "version") {
        return in_series(v);
    }
    match (str_of(row, "version_min"), str_of(row, "version_max")) {
        (Some(lo), Some(hi)) if lo == hi => in_series(lo),
        (Some(lo), Some(hi)) => {
            in_series(lo)
                || in_series(hi)
                || (cmp_versions(want, lo).is_ge() && cmp_versions(want, hi).is_le())
        }
        _ => true,
    }
}

fn row_key(row: &Value) -> String {
    let v = str_of(row, "version")
        .map(str::to_string)
        .unwrap_or_else(
            || match (str_of(row, "version_min"), str_of(row, "version_max")) {
                (Some(a), Some(b)) if a == b => a.to_string(),
                (Some(a), Some(b)) => format!("{a}..{b}"),
                _ => String::new(),
            },
        );
    match str_of(row, "package") {
        Some(p) => format!("{p} {v}").trim().to_string(),
        None => v,
    }
}

pub fn answer(kb: &Kb, a: &Args) -> Result<PackageAnswer, Unknown> {
    let want = norm(&a.name);
    let mut names = Vec::new();
    let mut rows = Vec::new();
    for (table, named, list) in tables(kb) {
        for r in list {
            let pkg = if named {
                str_of(&r, "package").map(norm).unwrap_or_default()
            } else {
                table.to_string()
            };
            if !names.contains(&pkg) {
                names.push(pkg.clone());
            }
            // A table's own name lists all its rows (`jax` -> the jax-cuda plugins).
            let hit = pkg == want || table == want;
            let in_release = match a.version.as_deref() {
                Some(v) => version_matches(&r, v.trim()),
                None => true,
            };
            if !hit || !in_release {
                continue;
            }
            let kb = KbRef {
                table: table.to_string(),
                row: row_key(&r),
                source: str_of(&r, "source").unwrap_or_default().to_string(),
            };
            rows.push(PackageRow {
                table,
                facts: r,
                kb,
            });
        }
    }
    if !names.contains(&want) && rows.is_empty() {
        return Err(Unknown::new(
            format!("no package table knows {:?}", a.name),
            nearest_of(&a.name, &names, 5),
        ));
    }
    if rows.is_empty() {
        return Err(Unknown::new(
            format!(
                "{} {} is not in the tables",
                a.name,
                a.version.as_deref().unwrap_or("")
            ),
            Vec::new(),
        ));
    }
    Ok(PackageAnswer {
        package: want,
        version: a.version.clone(),
        rows,
    })
}

fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(a) => a.iter().map(scalar).collect::<Vec<_>>().join(" "),
        other => other.to_string(),
    }
}

impl Answer for PackageAnswer {
    fn render(&self, out: &mut Text) {
        for (i, r) in self.rows.iter().enumerate() {
            if i > 0 {
                out.blank();
            }
            let c = out.cite(&r.kb);
            out.kv(r.kb.row.clone(), c);
            if let Value::Object(m) = &r.facts {
                for (k, v) in m {
                    if v.is_null()
                        || matches!(
                            k.as_str(),
                            "source" | "package" | "version" | "version_min" | "version_max"
                        )
                    {
                        continue;
                    }
                    out.sub(k.replace('_', " "), scalar(v));
                }
            }
        }
    }
}
