//! The knowledge base: sourced tables in `data/*.toml`, embedded in the
//! binary and parsed once; `--kb DIR` replaces any of them with a newer file
//! of the same name. Code asks it typed questions (see `queries`).

pub mod arch;
pub mod queries;
pub mod resolve;
pub mod tables;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::de::DeserializeOwned;

pub use arch::{kernels_for, KernelMatch};
pub use queries::*;
use tables::*;

#[derive(Debug, thiserror::Error)]
pub enum KbError {
    #[error("{path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("knowledge table {name}: {message}")]
    Parse { name: String, message: String },
    /// A table loaded but breaks a rule every table keeps (see [`tables::validate`]).
    #[error("knowledge {0}")]
    Invalid(tables::RowError),
}

/// Where a command's knowledge base comes from: a [`Kb`] at hand, or one
/// parsed on first use, so a command that reads text first (explain) can
/// parse it on another thread meanwhile.
pub trait KbSource {
    /// The knowledge base, parsed now if it was not yet.
    fn kb(&self) -> &Kb;
}

impl KbSource for Kb {
    fn kb(&self) -> &Kb {
        self
    }
}

/// Every table, by its file name.
#[derive(Debug, Clone)]
pub struct Kb {
    pub cuda_toolkits: Table<ToolkitRow>,
    pub minor_compat: Table<MinorCompatRow>,
    pub nvcc_targets: Table<NvccTargetsRow>,
    pub gpus: Table<GpuRow>,
    pub architectures: Table<ArchitectureRow>,
    pub driver_branches: Table<DriverBranchRow>,
    pub mig: Table<MigRow>,
    pub torch_releases: Table<TorchReleaseRow>,
    pub torch_arch: Table<TorchArchRow>,
    pub onnxruntime: Table<OnnxruntimeRow>,
    pub tensorrt: Table<TensorrtRow>,
    pub cudnn: Table<CudnnRow>,
    pub tensorflow: Table<TensorflowRow>,
    pub jax: Table<JaxRow>,
    pub nvidia_wheels: Table<NvidiaWheelRow>,
    pub cuda_images: Table<CudaImageRow>,
    pub extensions: Table<ExtensionRow>,
    pub apps: Table<AppRow>,
    /// Each GPU row's name split the ways a lookup compares it, built once on
    /// first lookup (a clone starts without it, so a changed copy rebuilds).
    pub(crate) gpu_keys: queries::GpuKeys,
}

macro_rules! embedded {
    ($($name:ident),* $(,)?) => {
        /// The table files compiled into the binary, by name (TOML, as in data/).
        pub const EMBEDDED: &[(&str, &str)] = &[
            $((stringify!($name), include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/", stringify!($name), ".toml")))),*
        ];

        /// The same tables converted to JSON by build.rs, which is what start-up parses.
        const EMBEDDED_JSON: &[(&str, &str)] = &[
            $((stringify!($name), include_str!(concat!(env!("OUT_DIR"), "/", stringify!($name), ".json")))),*
        ];

        impl Kb {
            /// Build from a lookup that returns each table's text by name.
            fn from_sources(get: &dyn Fn(&str) -> Result<Source, KbError>) -> Result<Kb, KbError> {
                Ok(Kb {
                    $($name: parse_table(stringify!($name), get(stringify!($name))?)?,)*
                    gpu_keys: Default::default(),
                })
            }
        }
    };
}

embedded!(
    cuda_toolkits,
    minor_compat,
    nvcc_targets,
    gpus,
    architectures,
    driver_branches,
    mig,
    torch_releases,
    torch_arch,
    onnxruntime,
    tensorrt,
    cudnn,
    tensorflow,
    jax,
    nvidia_wheels,
    cuda_images,
    extensions,
    apps,
);

/// A table's text and its format.
enum Source {
    Toml(String),
    Json(&'static str),
}

fn parse_table<R: DeserializeOwned>(name: &str, src: Source) -> Result<Table<R>, KbError> {
    let parsed = match src {
        Source::Toml(text) => toml::from_str(&text).map_err(|e| toml_message(&text, &e)),
        Source::Json(text) => serde_json::from_str(text).map_err(|e| e.to_string()),
    };
    parsed.map_err(|message| KbError::Parse {
        name: name.to_string(),
        message,
    })
}

/// Where a TOML error is and what it says, without quoting the file (which
/// may be anything a link points at).
fn toml_message(text: &str, e: &toml::de::Error) -> String {
    let message = crate::render::sanitize::excerpt(e.message(), 200);
    match e.span() {
        Some(span) => {
            let before = text.get(..span.start).unwrap_or("");
            let line = before.matches('\n').count() + 1;
            let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            format!("line {line}, column {col}: {message}")
        }
        None => message,
    }
}

fn embedded_json(name: &str) -> Result<Source, KbError> {
    EMBEDDED_JSON
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| Source::Json(t))
        .ok_or_else(|| KbError::Parse {
            name: name.to_string(),
            message: "no such table".into(),
        })
}

impl Kb {
    /// Parse the embedded TOML text itself (what `--kb` files are parsed as);
    /// the data tests use it to prove the TOML and the JSON agree.
    pub fn from_embedded_toml() -> Result<Kb, KbError> {
        Kb::from_sources(&|name| {
            EMBEDDED
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, t)| Source::Toml(t.to_string()))
                .ok_or_else(|| KbError::Parse {
                    name: name.to_string(),
                    message: "no such table".into(),
                })
        })
    }
}

impl Kb {
    /// The tables compiled into the binary, parsed once per process.
    pub fn embedded() -> &'static Kb {
        static KB: OnceLock<Kb> = OnceLock::new();
        KB.get_or_init(|| {
            Kb::from_sources(&embedded_json)
                .expect("embedded knowledge tables are validated by tests")
        })
    }

    /// The embedded tables with `name` replaced by the TOML `text`, validated as
    /// `--kb` tables are (what `with_overrides` does for one file; fuzzing uses it).
    pub fn with_table_text(name: &str, text: &str) -> Result<Kb, KbError> {
        if !EMBEDDED.iter().any(|(n, _)| *n == name) {
            return Err(KbError::Parse {
                name: name.to_string(),
                message: "no such table".into(),
            });
        }
        let kb = Kb::from_sources(&|n| {
            if n == name {
                Ok(Source::Toml(text.to_string()))
            } else {
                embedded_json(n)
            }
        })?;
        tables::validate(&kb).map_err(KbError::Invalid)?;
        Ok(kb)
    }

    /// The embedded tables, with any `<name>.toml` in `dir` taking the place of its twin.
    pub fn with_overrides(dir: &Path) -> Result<Kb, KbError> {
        if !dir.is_dir() {
            return Err(KbError::Read {
                path: dir.to_path_buf(),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "not a directory"),
            });
        }
        let kb = Kb::from_sources(&|name| {
            let path = dir.join(format!("{name}.toml"));
            match crate::system::read_input(&path, tables::MAX_TABLE_BYTES) {
                Ok(b) => String::from_utf8(b)
                    .map(Source::Toml)
                    .map_err(|e| KbError::Parse {
                        name: name.to_string(),
                        message: format!(
                            "{}: not UTF-8 (at byte {})",
                            path.display(),
                            e.utf8_error().valid_up_to()
                        ),
                    }),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => embedded_json(name),
                // The message names the file; kept out of the error's source chain so it is said once.
                Err(e) => Err(KbError::Parse {
                    name: name.to_string(),
                    message: e.to_string(),
                }),
            }
        })?;
        tables::validate(&kb).map_err(KbError::Invalid)?;
        Ok(kb)
    }
}
