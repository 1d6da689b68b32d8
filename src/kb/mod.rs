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
                Ok(Kb { $($name: parse_table(stringify!($name), get(stringify!($name))?)?),* })
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
);

/// A table's text and its format.
enum Source {
    Toml(String),
    Json(&'static str),
}

fn parse_table<R: DeserializeOwned>(name: &str, src: Source) -> Result<Table<R>, KbError> {
    let parsed = match src {
        Source::Toml(text) => toml::from_str(&text).map_err(|e| e.to_string()),
        Source::Json(text) => serde_json::from_str(text).map_err(|e| e.to_string()),
    };
    parsed.map_err(|message| KbError::Parse {
        name: name.to_string(),
        message,
    })
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

    /// The embedded tables, with any `<name>.toml` in `dir` taking the place of its twin.
    pub fn with_overrides(dir: &Path) -> Result<Kb, KbError> {
        if !dir.is_dir() {
            return Err(KbError::Read {
                path: dir.to_path_buf(),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "not a directory"),
            });
        }
        Kb::from_sources(&|name| {
            let path = dir.join(format!("{name}.toml"));
            match std::fs::read_to_string(&path) {
                Ok(t) => Ok(Source::Toml(t)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => embedded_json(name),
                Err(source) => Err(KbError::Read { path, source }),
            }
        })
    }
}
