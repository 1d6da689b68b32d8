//! Why something does not run, as types: the fix follows what limits the
//! stack (the driver, a GPU, the request, the knowledge base), never the
//! wording of a message.

use super::*;

/// Why a CUDA version or a torch build does not run on a host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Misfit {
    /// The host's driver does not run this CUDA under the semantic in use;
    /// a newer driver would.
    Driver { text: String },
    /// A GPU's architecture is past its last toolkit at this CUDA: no driver helps.
    ArchLastToolkit { gpu: u32, text: String },
    /// The build has neither SASS nor PTX for a GPU: no driver helps.
    /// `reason` is the arch list's verdict alone, without the GPU's name.
    NoKernel {
        gpu: u32,
        reason: String,
        text: String,
    },
    /// A GPU has only PTX in the build, and the driver runs the build's CUDA
    /// only under minor-version compatibility, which cannot JIT-compile PTX
    /// newer than the driver; the CUDA's toolkit driver would.
    PtxNeedsNewerDriver { gpu: u32, text: String },
    /// The knowledge base cannot tell (an arch list or a driver floor unknown).
    Unknown { text: String },
}

impl Misfit {
    pub(super) fn text(&self) -> &str {
        match self {
            Misfit::Driver { text }
            | Misfit::ArchLastToolkit { text, .. }
            | Misfit::NoKernel { text, .. }
            | Misfit::PtxNeedsNewerDriver { text, .. }
            | Misfit::Unknown { text } => text,
        }
    }

    /// The CUDA version itself is out of reach of this host (its driver or
    /// its GPUs' last toolkit), as opposed to the build's kernels.
    pub(super) fn cuda_bound(&self) -> bool {
        matches!(self, Misfit::Driver { .. } | Misfit::ArchLastToolkit { .. })
    }
}

impl std::fmt::Display for Misfit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.text())
    }
}

/// What keeps a group of hosts from getting any stack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Limit {
    /// A newer driver would give one: `build` is the newest torch build with
    /// kernels for every GPU, `driver` the lowest driver that runs it with no
    /// caveats (either unknown when torch was not asked for).
    Driver {
        build: Option<String>,
        driver: Option<String>,
    },
    /// No build in the request's releases has kernels for every GPU of the
    /// hosts at once, whatever the driver; each GPU alone has one.
    GpuMix,
    /// Some GPU has no build at all among the requested releases.
    GpuUnsupported { gpu: String },
    /// The request rules everything out (a release, a Python).
    Request,
    /// The knowledge base lacks what would decide it (arch lists unknown).
    Knowledge,
}

/// No stack for a group of hosts: what to print, and what limits it.
#[derive(Debug, Clone)]
pub(super) struct NoStack {
    pub(super) problems: Vec<String>,
    pub(super) limit: Limit,
}

impl NoStack {
    pub(super) fn new(problems: Vec<String>, limit: Limit) -> NoStack {
        NoStack { problems, limit }
    }

    /// The fixes to print for a host of this group, by what limits it.
    pub(super) fn fixes(&self, mode: SemanticMode) -> Vec<String> {
        let relax_semantic = match mode {
            SemanticMode::Toolkit => ", --semantic auto",
            _ => "",
        };
        match &self.limit {
            Limit::Driver {
                build: Some(b),
                driver: Some(d),
            } => vec![format!(
                "upgrade the driver to {d} or newer (torch {b}, the newest build with kernels for every GPU, with no caveats), or relax the request (--with, --python{relax_semantic})"
            )],
            Limit::Driver { .. } => vec![format!(
                "upgrade the driver, or relax the request (--with, --python{relax_semantic})"
            )],
            Limit::GpuMix => vec![
                "no single torch build has kernels for every GPU here, whatever the driver: run one stack per GPU group (CUDA_VISIBLE_DEVICES), or remove or replace the GPU the others outgrew".into(),
            ],
            Limit::GpuUnsupported { gpu } => vec![format!(
                "no requested torch release has a build with kernels for {gpu}: ask for an older release (--with torch==X), or remove or replace that GPU"
            )],
            Limit::Request => vec!["relax the request (--with, --python)".into()],
            Limit::Knowledge => vec![
                "relax the request (--with, --python), or give the missing arch lists in newer knowledge tables (--kb DIR)".into(),
            ],
        }
    }
}
