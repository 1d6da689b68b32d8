//! What a rule reports: a finding with its evidence, the knowledge rows that
//! made it fire, and the fix. The shape is the JSON contract of `check`,
//! `explain`, `lint` and `smoke`.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// The fixed list of failure categories (JSON field `category`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    CpuOnlyWheel,
    DriverTooOld,
    ArchUnsupported,
    DriverLibraryMismatch,
    NoDriver,
    Wsl,
    Container,
    MacosNoCuda,
    AmdRocm,
    CudnnMismatch,
    TensorrtMismatch,
    OnnxruntimeCuda,
    EnvVar,
    FabricManager,
    Mig,
    MultipleCuda,
    DriverBranch,
    PlatformPosture,
    Misconception,
    CompiledExtension,
}

impl Category {
    pub const ALL: [Category; 20] = [
        Category::CpuOnlyWheel,
        Category::DriverTooOld,
        Category::ArchUnsupported,
        Category::DriverLibraryMismatch,
        Category::NoDriver,
        Category::Wsl,
        Category::Container,
        Category::MacosNoCuda,
        Category::AmdRocm,
        Category::CudnnMismatch,
        Category::TensorrtMismatch,
        Category::OnnxruntimeCuda,
        Category::EnvVar,
        Category::FabricManager,
        Category::Mig,
        Category::MultipleCuda,
        Category::DriverBranch,
        Category::PlatformPosture,
        Category::Misconception,
        Category::CompiledExtension,
    ];

    /// The snake_case name used in JSON and on the command line.
    pub fn as_str(&self) -> &'static str {
        match self {
            Category::CpuOnlyWheel => "cpu_only_wheel",
            Category::DriverTooOld => "driver_too_old",
            Category::ArchUnsupported => "arch_unsupported",
            Category::DriverLibraryMismatch => "driver_library_mismatch",
            Category::NoDriver => "no_driver",
            Category::Wsl => "wsl",
            Category::Container => "container",
            Category::MacosNoCuda => "macos_no_cuda",
            Category::AmdRocm => "amd_rocm",
            Category::CudnnMismatch => "cudnn_mismatch",
            Category::TensorrtMismatch => "tensorrt_mismatch",
            Category::OnnxruntimeCuda => "onnxruntime_cuda",
            Category::EnvVar => "env_var",
            Category::FabricManager => "fabric_manager",
            Category::Mig => "mig",
            Category::MultipleCuda => "multiple_cuda",
            Category::DriverBranch => "driver_branch",
            Category::PlatformPosture => "platform_posture",
            Category::Misconception => "misconception",
            Category::CompiledExtension => "compiled_extension",
        }
    }

    pub fn parse(s: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.as_str() == s)
    }
}

impl std::fmt::Display for Category {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One fact a finding rests on, and where it was read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    /// What the fact is: `driver version`, `torch (/venv) CUDA build`, `GPU 0 compute capability`.
    pub fact: String,
    pub value: String,
    pub source: String,
}

/// A knowledge-base row a finding used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KbRef {
    /// The table (`cuda_toolkits`, `gpus`, `torch_arch`, ...).
    pub table: String,
    /// The row's key as written in the table (`12.4.0`, `NVIDIA GeForce RTX 4090`).
    pub row: String,
    pub source: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fix {
    /// A command that fixes it, where one exists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// What to do, in words (always set when there is no command).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The change the fix makes, in a form code can apply to an inventory
    /// (the fix property test does); empty where the fix is advice only.
    #[serde(skip)]
    pub actions: Vec<crate::rules::action::FixAction>,
}

impl Fix {
    /// A fix in words alone: no command, no action.
    pub fn from_note(note: impl Into<String>) -> Fix {
        Fix {
            note: Some(note.into()),
            ..Default::default()
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    pub code: String,
    pub name: String,
    pub category: Category,
    pub severity: Severity,
    pub message: String,
    pub evidence: Vec<Evidence>,
    pub kb: Vec<KbRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<Fix>,
    /// Line in the input a lint or explain finding points at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

impl Finding {
    pub fn evidence(
        mut self,
        fact: impl Into<String>,
        value: impl ToString,
        source: impl Into<String>,
    ) -> Self {
        self.push_evidence(fact, value, source);
        self
    }

    /// [`Finding::evidence`] on a finding already built.
    pub fn push_evidence(
        &mut self,
        fact: impl Into<String>,
        value: impl ToString,
        source: impl Into<String>,
    ) {
        self.evidence.push(Evidence {
            fact: fact.into(),
            value: value.to_string(),
            source: source.into(),
        });
    }

    /// Each error as "observed error" evidence, with the line it was read from.
    pub fn observed<'a>(
        mut self,
        errs: impl IntoIterator<Item = &'a crate::inventory::ObservedError>,
    ) -> Self {
        for e in errs {
            self.push_evidence("observed error", &e.text, &e.source);
        }
        self
    }

    /// Evidence from an inventory fact.
    pub fn fact<T: std::fmt::Display>(
        self,
        fact: impl Into<String>,
        f: &crate::inventory::Fact<T>,
    ) -> Self {
        let (v, s) = (f.value.to_string(), f.source.clone());
        self.evidence(fact, v, s)
    }

    pub fn kb(mut self, r: KbRef) -> Self {
        if !self.kb.contains(&r) {
            self.kb.push(r);
        }
        self
    }

    pub fn fix_command(mut self, command: impl Into<String>, note: Option<String>) -> Self {
        self.fix = Some(Fix {
            command: Some(command.into()),
            note,
            ..Default::default()
        });
        self
    }

    pub fn fix_note(mut self, note: impl Into<String>) -> Self {
        self.fix = Some(Fix::from_note(note));
        self
    }
}

/// Exit code per the conventions: 1 when any finding is an error, else 0.
pub fn exit_code(findings: &[Finding]) -> i32 {
    if findings.iter().any(|f| f.severity == Severity::Error) {
        1
    } else {
        0
    }
}
