//! The knowledge base: sourced tables in `data/*.toml`, embedded in the
//! binary and parsed once; `--kb DIR` replaces any of them with a newer file
//! of the same name. Code asks it typed questions (see `queries`).

pub mod arch;
pub mod queries;
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
}

macro_rules! embedded {
    ($($name:ident),* $(,)?) => {
        /// The table files compiled into the binary, by name.
        pub const EMBEDDED: &[(&str, &str)] = &[
            $((stringify!($name), include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/", stringify!($name), ".toml")))),*
        ];

        impl Kb {
            /// Build from a lookup that returns each table's TOML text by name.
            fn from_sources(get: &dyn Fn(&str) -> Result<String, KbError>) -> Result<Kb, KbError> {
                Ok(Kb { $($name: parse_table(stringify!($name), &get(stringify!($name))?)?),* })
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
);

fn parse_table<R: DeserializeOwned>(name: &str, text: &str) -> Result<Table<R>, KbError> {
    toml::from_str(text).map_err(|e| KbError::Parse {
        name: name.to_string(),
        message: e.to_string(),
    })
}

fn embedded_text(name: &str) -> Result<String, KbError> {
    EMBEDDED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| t.to_string())
        .ok_or_else(|| KbError::Parse {
            name: name.to_string(),
            message: "no such table".into(),
        })
}

impl Kb {
    /// The tables compiled into the binary, parsed once per process.
    pub fn embedded() -> &'static Kb {
        static KB: OnceLock<Kb> = OnceLock::new();
        KB.get_or_init(|| {
            Kb::from_sources(&embedded_text)
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
                Ok(t) => Ok(t),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => embedded_text(name),
                Err(source) => Err(KbError::Read { path, source }),
            }
        })
    }
}
