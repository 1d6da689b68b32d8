//! Misconception family: what reports take for a failure while the stack
//! works as designed. Each finding is informational; it explains the
//! reading, so no one reinstalls a working driver or toolkit.

use crate::finding::{Category, Finding, Severity};
use crate::inventory::{ErrorKind, Inventory, Topic};
use crate::kb::Kb;

use super::{facts, Docs, Rule};

pub static RULES: &[&Rule] = &[
    &MIS001, &MIS002, &MIS003, &MIS004, &MIS005, &MIS006, &MIS007, &MIS008,
];

pub static MIS001: Rule = Rule {
    code: "MIS001",
    name: "smi-cuda-is-the-driver-maximum",
    category: Category::Misconception,
    severity: Severity::Info,
    summary: "nvidia-smi's 'CUDA Version' is the newest CUDA the driver supports, not the installed toolkit or the container's CUDA.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "A pasted nvidia-smi header next to an nvcc or an nvidia/cuda image of another CUDA version, or a report that says nvidia-smi shows the 'wrong' CUDA version.",
        why_it_breaks: "Nothing breaks: the CUDA Version in nvidia-smi's header comes from the driver (libcuda) and names the newest CUDA runtime it can run. It does not change when another toolkit is selected (nvcc, CUDA_HOME, update-alternatives), and inside a container it shows the host driver's value, because the driver's user-space files are mounted from the host. Scripts that pick a CUDA build from it pick what the driver allows, not what is installed.",
        how_to_fix: "Read the toolkit from `nvcc --version` (or the framework's own `torch.version.cuda`), and the container's CUDA from its CUDA_VERSION variable; nvidia-smi's value only has to be at least as new as them.",
        sources: &[
            "https://docs.nvidia.com/deploy/cuda-compatibility/index.html (the driver's CUDA version vs the toolkit's)",
            "https://github.com/NVIDIA/nvidia-docker/wiki/CUDA (the driver comes from the host)",
        ],
    },
    check: check_mis001,
    superseded_by: &[],
};

fn check_mis001(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let said = inv.errors_of(&[ErrorKind::SmiCudaQuestion]);
    let smi = inv
        .nvidia
        .cuda_max
        .as_ref()
        .filter(|f| facts::pasted(&f.source) && !f.source.starts_with("kb "));
    let mut other: Vec<(String, String, String)> = Vec::new();
    if let Some(m) = smi {
        let max = (m.value.major, m.value.minor);
        for t in inv.toolkits.iter().filter(|t| t.has_nvcc) {
            let v = &t.version.value;
            if (v.major, v.minor) != max && facts::pasted(&t.version.source) {
                other.push((
                    format!("nvcc ({})", t.path),
                    format!("{}.{}", v.major, v.minor),
                    t.version.source.clone(),
                ));
            }
        }
        if let Some(img) = &inv.setting.run_image_cuda {
            if img.value != format!("{}.{}", max.0, max.1) {
                other.push((
                    "nvidia/cuda image of the docker run".into(),
                    img.value.clone(),
                    img.source.clone(),
                ));
            }
        }
    }
    if said.is_empty() && other.is_empty() {
        return vec![];
    }
    let newer = |v: &str| {
        smi.zip(v.parse::<crate::version::CudaVersion>().ok())
            .is_some_and(|(m, v)| v.major_minor() > m.value.major_minor())
    };
    let msg = match (smi, other.first()) {
        (Some(m), Some((what, v, _))) if newer(v) => format!(
            "nvidia-smi's CUDA Version {}.{} is the newest CUDA this driver supports; {what} is CUDA {v}. The header never shows the toolkit or the image, but this one is newer than the driver supports: what it builds or starts needs a newer driver (RUN004, CTR002).",
            m.value.major, m.value.minor
        ),
        (Some(m), Some((what, v, _))) => format!(
            "nvidia-smi's CUDA Version {}.{} is the newest CUDA this driver supports; {what} is CUDA {v}. Both can be right at once: the header never shows the toolkit or the image.",
            m.value.major, m.value.minor
        ),
        _ => "nvidia-smi's CUDA Version is the newest CUDA the driver supports; it does not follow the selected toolkit (nvcc) or a container image's CUDA.".to_string(),
    };
    let mut f = MIS001.finding(msg);
    if let Some(m) = smi {
        f = f.evidence(
            "nvidia-smi CUDA Version",
            format!("{}.{}", m.value.major, m.value.minor),
            &m.source,
        );
    }
    for (what, v, src) in &other {
        f = f.evidence(what.clone(), v, src);
    }
    for e in said {
        f = f.evidence("the report says", &e.text, &e.source);
    }
    vec![f.fix_note("Check the toolkit with `nvcc --version` and the framework with `python -c \"import torch; print(torch.version.cuda)\"`; the driver only has to support at least that CUDA.")]
}

pub static MIS002: Rule = Rule {
    code: "MIS002",
    name: "visible-devices-are-renumbered",
    category: Category::Misconception,
    severity: Severity::Info,
    summary: "GPUs chosen through CUDA_VISIBLE_DEVICES (or a launcher's gpu_ids) are renumbered from 0: cuda:0 is the first chosen GPU.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "A pasted CUDA_VISIBLE_DEVICES or gpu_ids that starts at another index than 0, next to output that reports device 0 (cuda:0, GPU 0) in use.",
        why_it_breaks: "Nothing breaks: CUDA enumerates only the devices CUDA_VISIBLE_DEVICES names, in that order, and numbers them from 0. With CUDA_VISIBLE_DEVICES=5 the process's cuda:0 is physical GPU 5; nvidia-smi, which ignores the variable, shows the physical numbers.",
        how_to_fix: "Nothing to fix. To see the physical GPU behind a device, compare `torch.cuda.get_device_properties(0).uuid` (or the PCI bus id) with `nvidia-smi -L`; set CUDA_DEVICE_ORDER=PCI_BUS_ID so CUDA's order matches nvidia-smi's.",
        sources: &["https://docs.nvidia.com/cuda/cuda-programming-guide/05-appendices/environment-variables.html (CUDA_VISIBLE_DEVICES, CUDA_DEVICE_ORDER)"],
    },
    check: check_mis002,
    superseded_by: &[],
};

fn check_mis002(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let Some(r) = &inv.setting.renumbered_devices else {
        return vec![];
    };
    // The deepspeed launcher sets its own CUDA_VISIBLE_DEVICES (ENV015):
    // the GPUs asked for are not the ones it numbers.
    if inv.setting.deepspeed_picks_gpus.is_some() {
        return vec![];
    }
    let first = r.value.split(',').next().unwrap_or("").trim().to_string();
    vec![MIS002
        .finding(format!(
            "The GPUs were chosen as {}: the process numbers them from 0, so its cuda:0 is physical GPU {first}. Device 0 in its output is the GPU that was asked for.",
            r.value
        ))
        .fact("GPUs chosen by index", r)
        .fix_note("nvidia-smi -L lists the physical numbering; set CUDA_DEVICE_ORDER=PCI_BUS_ID to make CUDA's order match it")]
}

pub static MIS003: Rule = Rule {
    code: "MIS003",
    name: "host-toolkit-plays-no-part-in-a-container",
    category: Category::Misconception,
    severity: Severity::Info,
    summary: "The host's CUDA toolkit version does not decide which CUDA a container can use: only the host driver does.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "A report that sets the host's CUDA version against a container's or image's CUDA version of another release ('CUDA 10.2 on the host ... CUDA 11 containers').",
        why_it_breaks: "Nothing breaks: a container brings its own CUDA runtime and libraries from its image, and the NVIDIA container toolkit mounts only the host's driver into it. A CUDA toolkit installed on the host is not used by the container at all; the image's CUDA only needs a host driver at or above that CUDA's minimum (or minor-version compatibility within its major).",
        how_to_fix: "Pick the image by the host driver: `nvidia-smi` on the host shows the newest CUDA it supports, and any image of that CUDA or older runs; `gpucompat pin` on the host names the newest.",
        sources: &[
            "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/index.html",
            "https://docs.nvidia.com/deploy/cuda-compatibility/index.html",
            "https://github.com/NVIDIA/nvidia-docker/issues/1332",
        ],
    },
    check: check_mis003,
    superseded_by: &[],
};

fn check_mis003(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let said = inv.errors_of(&[ErrorKind::HostCudaContainerQuestion]);
    if said.is_empty() {
        return vec![];
    }
    let mut f = MIS003.finding(
        "The report sets the host's CUDA version against the container's: the host's toolkit plays no part in a container, which brings its own CUDA; only the host driver has to support the image's CUDA.".to_string(),
    );
    for e in &said {
        f = f.evidence("the report says", &e.text, &e.source);
    }
    vec![f.fix_command(
        "nvidia-smi   # on the host: its 'CUDA Version' is the newest image CUDA the driver runs"
            .to_string(),
        None,
    )]
}

pub static MIS004: Rule = Rule {
    code: "MIS004",
    name: "notice-read-as-a-fault",
    category: Category::Misconception,
    severity: Severity::Info,
    summary: "The line the report worries about is a notice the program prints on a working GPU (Paddle's driver and runtime API versions, TensorRT's lazy-loading advice), and nothing in the report failed.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "A known notice (PaddlePaddle's `Please NOTE: device: N, CUDA Capability: ..., Driver API Version: ..., Runtime API Version: ...`; TensorRT's `CUDA lazy loading is not enabled`; JAX's `a CUDA-enabled jaxlib is not installed` in a report that names JAX nowhere else) in a report that shows no failure.",
        why_it_breaks: "Nothing breaks: Paddle prints the GPU's compute capability and the driver's and runtime's CUDA API versions at warning level each time it opens the GPU, and TensorRT suggests CUDA_MODULE_LOADING=LAZY to save device memory. Both lines appear when the GPU is in use.",
        how_to_fix: "Nothing to fix. For Paddle, a driver API version at or above the runtime's is as it should be; for TensorRT, `export CUDA_MODULE_LOADING=LAZY` (CUDA 11.7 and later) silences the advice and lowers memory use.",
        sources: &[
            "https://github.com/PaddlePaddle/Paddle/issues/23487",
            "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#lazy-loading (CUDA_MODULE_LOADING=LAZY)",
            "https://github.com/cyrusbehr/YOLOv8-TensorRT-CPP/issues/33",
            "https://github.com/jax-ml/jax/blob/main/jax/_src/xla_bridge.py (the CPU fallback warning)",
        ],
    },
    check: check_mis004,
    superseded_by: &[],
};

fn check_mis004(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let Some(n) = &inv.setting.benign_notice else {
        return vec![];
    };
    if !inv.errors.is_empty() {
        return vec![];
    }
    let lower = n.value.to_ascii_lowercase();
    if lower.contains("cuda-enabled jaxlib") {
        let f = MIS004
            .finding("The line the report shows is JAX's warning that its CUDA backend is not installed. jax prints it whenever it is imported, also when it comes in as another package's dependency (a PyTorch trainer, diffusers, a notebook's preinstalled packages); the report names JAX nowhere else and shows no failure, so it says nothing about the GPU the program computes with. It matters only for a program that computes with JAX itself.".to_string())
            .fact("notice", n);
        return vec![f.fix_command(
            "pip install -U \"jax[cuda12]\"".to_string(),
            Some("only if the program computes with JAX; otherwise nothing to fix (check the framework it does use, e.g. `python -c \"import torch; print(torch.cuda.is_available())\"`)".to_string()),
        )];
    }
    let lazy = lower.contains("lazy loading");
    let what = if lazy {
        "TensorRT's advice to enable CUDA lazy loading (CUDA_MODULE_LOADING=LAZY), which it prints on a working GPU to save device memory"
    } else {
        "PaddlePaddle's notice of the GPU's compute capability and the driver's and runtime's CUDA API versions, which it prints at warning level each time it opens the GPU (a driver API version at or above the runtime's is as it should be)"
    };
    let f = MIS004
        .finding(format!(
            "The line the report shows is {what}; nothing in the report failed, so the GPU is in use."
        ))
        .fact("notice", n);
    vec![if lazy {
        f.fix_command(
            "export CUDA_MODULE_LOADING=LAZY".to_string(),
            Some("optional: it silences the advice and lowers device memory use (CUDA 11.7 and later)".to_string()),
        )
    } else {
        f.fix_note("nothing to fix")
    }]
}

pub static MIS005: Rule = Rule {
    code: "MIS005",
    name: "cudnn-switch-read-as-availability",
    category: Category::Misconception,
    severity: Severity::Info,
    summary: "`torch.backends.cudnn.enabled` is a switch that is True by default in every torch build, CPU-only included; it does not say that cuDNN or CUDA is available.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "A report that prints `torch.backends.cudnn.enabled` as True (a REPL line, a print, `torch.backends.cudnn.enabled - True`), where no cuDNN error was observed. Code that sets the switch (`torch.backends.cudnn.enabled = True`) is not read as its value.",
        why_it_breaks: "Nothing breaks by itself: the switch only tells torch whether to use cuDNN once it runs on a GPU, and it is True unless a program turns it off. Reading it as 'cuDNN works' hides the real state, which `torch.cuda.is_available()` and `torch.backends.cudnn.is_available()` report.",
        how_to_fix: "Check `torch.cuda.is_available()` and `torch.backends.cudnn.is_available()` (and `torch.backends.cudnn.version()`); if CUDA is unavailable, look at the torch build and the driver instead.",
        sources: &[
            "https://pytorch.org/docs/stable/backends.html (torch.backends.cudnn.enabled: a bool that controls whether cuDNN is enabled; torch.backends.cudnn.is_available())",
            "https://github.com/fastai/fastai/issues/1405",
        ],
    },
    check: check_mis005,
    superseded_by: &[],
};

fn check_mis005(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let Some(flag) = inv
        .python
        .iter()
        .filter_map(|e| e.runtime.as_ref()?.cudnn_enabled.as_ref())
        .find(|f| f.value)
    else {
        return vec![];
    };
    let cudnn_failed = inv.errors.iter().any(|e| {
        matches!(
            e.kind,
            ErrorKind::CudnnMissing | ErrorKind::CudnnVersionMismatch
        )
    });
    if cudnn_failed {
        return vec![];
    }
    let unavailable = facts::cuda_said_unavailable(inv);
    let mut f = MIS005.finding(format!(
        "The report reads `torch.backends.cudnn.enabled` = True as if cuDNN were in use; it is a switch that is True by default in every torch build, CPU-only included, and says nothing about cuDNN or CUDA being available.{}",
        if unavailable.is_some() {
            " Here torch.cuda.is_available() is False: that is the fact to follow (the torch build, the driver, the GPU)."
        } else {
            ""
        }
    ))
    .fact("torch.backends.cudnn.enabled", flag);
    if let Some(a) = unavailable {
        f = f.fact("torch.cuda.is_available()", a);
    }
    vec![f.fix_command(
        "python -c \"import torch; print(torch.cuda.is_available(), torch.backends.cudnn.is_available(), torch.backends.cudnn.version())\"".to_string(),
        None,
    )]
}

pub static MIS006: Rule = Rule {
    code: "MIS006",
    name: "cuda-runtime-is-not-a-compiler",
    category: Category::Misconception,
    severity: Severity::Info,
    summary: "A CUDA extension's build found no nvcc beside a torch CUDA wheel or conda's cudatoolkit: those carry the CUDA runtime libraries, not the compiler.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "A build that found no CUDA toolkit (torch's 'CUDA_HOME environment variable is not set', setup.py's 'nvcc was not found') in a report that shows a torch CUDA build or conda's cudatoolkit package and no toolkit of its own.",
        why_it_breaks: "torch's CUDA wheels and conda's cudatoolkit package (defaults, and conda-forge before CUDA 12) bring the CUDA runtime, cuBLAS and cuDNN that running code needs, and no nvcc. Compiling a CUDA extension (apex, flash-attn from source, a cpp_extension) needs nvcc and the headers from a CUDA toolkit, which neither provides.",
        how_to_fix: "Install a CUDA toolkit of torch's CUDA major.minor (the system toolkit, the `cuda-nvcc` and `cuda-toolkit` conda packages from the nvidia or conda-forge channel, or a -devel container image) and point CUDA_HOME at it; or install a prebuilt wheel of the extension.",
        sources: &[
            "https://github.com/NVIDIA/apex/issues/1360",
            "https://github.com/ContinuumIO/anaconda-issues/issues/10522 (cudatoolkit ships no nvcc)",
            "https://pytorch.org/docs/stable/cpp_extension.html (CUDA extensions need the CUDA toolkit)",
        ],
    },
    check: check_mis006,
    superseded_by: &[],
};

fn check_mis006(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let errs = inv.errors_of(&[ErrorKind::ToolkitNotFound]);
    if errs.is_empty() || !inv.toolkits.is_empty() {
        return vec![];
    }
    let torch = facts::runtimes(inv, kb)
        .into_iter()
        .find(|r| r.torch.is_some());
    let conda = inv
        .python
        .iter()
        .flat_map(|e| &e.packages)
        .find(|p| p.name == "cudatoolkit");
    let (what, fact_name, value, source) = match (&torch, conda) {
        (Some(r), _) => (
            format!("{} (a CUDA {} build)", r.what, r.cuda.value),
            "torch CUDA build",
            r.cuda.value.to_string(),
            r.cuda.source.clone(),
        ),
        (None, Some(p)) => (
            format!("conda's cudatoolkit {}", p.version),
            "cudatoolkit (conda)",
            p.version.clone(),
            p.source.clone(),
        ),
        (None, None) => return vec![],
    };
    let f = MIS006
        .finding(format!(
            "The build looks for nvcc, and the report's CUDA is {what}: that package carries the CUDA runtime libraries, not the compiler, so it cannot build a CUDA extension; a CUDA toolkit (or a -devel image) is what provides nvcc."
        ))
        .evidence(fact_name, value, source)
        .observed(errs);
    vec![f.fix_note("install a CUDA toolkit of torch's CUDA major.minor (system package, `conda install -c nvidia cuda-nvcc cuda-toolkit`, or a -devel image) and set CUDA_HOME to it, or use a prebuilt wheel of the extension")]
}

pub static MIS007: Rule = Rule {
    code: "MIS007",
    name: "usage-graph-is-not-cuda-load",
    category: Category::Misconception,
    severity: Severity::Info,
    summary: "A report that reads a GPU usage figure as a fault (Task Manager's GPU graphs, a low utilization) and shows no failure: the figure does not measure what it is taken for.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "A sentence about Windows Task Manager's GPU graphs, or one that calls the GPU usage or utilization low (30% or less), in a report with no error message and no CPU-only build in sight.",
        why_it_breaks: "Nothing breaks. Task Manager graphs each GPU engine on its own (3D, Copy, Video Encode, Video Decode by default) and its GPU figure is the busiest engine's; CUDA work runs on the Compute/Cuda engine, which the default graphs do not show, and NVENC on the video engine. nvidia-smi's GPU-Util is the share of time in which a kernel ran: it stays low while the GPU waits for input (data loading, CPU work, small batches), which is a throughput question, not a broken stack.",
        how_to_fix: "Watch the Compute (or Cuda) engine in Task Manager (an engine graph's drop-down picks it), or `nvidia-smi dmon -s u` while the job runs. If that is low too, profile the input pipeline (more data loader workers, a larger batch).",
        sources: &[
            "https://devblogs.microsoft.com/directx/gpus-in-the-task-manager/ (per-engine graphs; the GPU figure is the busiest engine's)",
            "https://docs.nvidia.com/deploy/nvml-api/structnvmlUtilization__t.html (GPU utilization: the share of time one or more kernels ran)",
            "https://github.com/leela-zero/leela-zero/issues/2073",
        ],
    },
    check: check_mis007,
    superseded_by: &[],
};

fn check_mis007(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    // The program's own output shows it opened a CUDA device.
    let opened = facts::cuda_said_available(inv);
    let mut said = inv.errors_of(&[ErrorKind::UsageGraphQuestion]);
    // "The GPU seems unused" is a question only where the output shows the GPU in use.
    if opened.is_some() {
        said.extend(inv.errors_of(&[ErrorKind::GpuUnusedQuestion]));
    }
    // Questions and running out of memory are no failure of the stack.
    let failed = inv
        .errors
        .iter()
        .any(|e| !e.kind.is_question() && e.kind != ErrorKind::OutOfMemory);
    let cpu_build = inv
        .python
        .iter()
        .filter_map(|e| e.torch.as_ref())
        .any(|t| t.cuda.as_ref().is_some_and(|c| c.value.is_none()));
    // A line about the GPU that reads as a failure (a CUDA error in prose, a
    // program falling back to the CPU) other than the usage question itself.
    let gpu_failing =
        inv.setting.mentions.iter().any(|m| {
            m.topic == Topic::Gpu && m.failing && !said.iter().any(|e| e.source == m.source)
        });
    if said.is_empty()
        || failed
        || cpu_build
        || gpu_failing
        || facts::cuda_said_unavailable(inv).is_some()
    {
        return vec![];
    }
    let mut f = match opened {
        Some(o) => MIS007
            .finding("The program's own output shows it opened a CUDA device, and the report shows no failure: the GPU is in use. Windows' Task Manager graphs (3D, Copy, Video Encode/Decode by default) and Device Manager do not show CUDA work, which runs on the Compute/Cuda engine, and a low utilization means the GPU waits for input, not that the stack is broken.")
            .fact("CUDA device opened", o),
        None => MIS007
            .finding("The report reads a GPU usage figure as a fault, and shows no failure: Task Manager's default GPU graphs (3D, Copy, Video Encode/Decode) do not show CUDA work, which runs on the Compute/Cuda engine, and a low utilization means the GPU waits for input, not that the stack is broken."),
    };
    for e in said {
        f = f.evidence("the report says", &e.text, &e.source);
    }
    vec![f.fix_command(
        "nvidia-smi dmon -s u",
        Some("run it while the job runs (in Task Manager, pick the Compute or Cuda engine in a graph's drop-down); if the GPU is busy there, nothing is wrong; if it is low too, the job waits on its input: more data loader workers, a larger batch".into()),
    )]
}

pub static MIS008: Rule = Rule {
    code: "MIS008",
    name: "device-index-beyond-the-gpus",
    category: Category::Misconception,
    severity: Severity::Warning,
    summary: "'Invalid device' where the report asks for a GPU by an index other than 0 and nothing restricts the GPUs: CUDA numbers them from 0, so the index is past the machine's last GPU.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "CUDA's 'invalid device ordinal' (or the driver API's 'cuDeviceGet failed: invalid device') beside a GPU index other than 0 on a command line or in code (`--gpu 1`, `cuda:1`, `set_device(1)`), in a report that sets no CUDA_VISIBLE_DEVICES and shows no Slurm or Ray GPU allocation.",
        why_it_breaks: "CUDA numbers the GPUs a process sees from 0 to N-1. On a machine with one GPU only device 0 exists, so an example's `--gpu 1` (an index, not a count or an on switch) names a GPU that is not there, and the driver refuses it.",
        how_to_fix: "Ask for device 0 (or an index below the number of GPUs `nvidia-smi -L` lists).",
        sources: &[
            "https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__DEVICE.html (cuDeviceGet: ordinals from 0 to the device count minus 1; CUDA_ERROR_INVALID_DEVICE otherwise)",
            "https://github.com/chainer/chainer/issues/42",
        ],
    },
    check: check_mis008,
    superseded_by: &[],
};

fn check_mis008(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let Some(index) = &inv.setting.device_index else {
        return vec![];
    };
    let ordinal = inv
        .errors_of(&[ErrorKind::NoVisibleDevices])
        .iter()
        .any(|e| crate::ingest::clean::has_ci(&e.text, "invalid device"));
    // Something else decides which GPUs the process sees: ERR014's to name.
    let restricted = facts::gpus_allocated(inv)
        || inv.setting.renumbered_devices.is_some()
        || inv.setting.ray_without_gpus.is_some();
    if !ordinal || restricted {
        return vec![];
    }
    let f = MIS008
        .finding(format!(
            "The program asked for GPU {} and CUDA has no device with that index: CUDA numbers the GPUs a process sees from 0, so a machine with one GPU has only device 0, and the index is not a count or an on switch. Nothing in the report restricts the GPUs (no CUDA_VISIBLE_DEVICES, no Slurm or Ray allocation).",
            index.value
        ))
        .fact("GPU index asked for", index);
    // The error itself is ERR014's, which folds into this finding.
    vec![f.fix_command(
        "nvidia-smi -L",
        Some(
            "ask for an index it lists (device 0 on a one-GPU machine: `--gpu 0`, `cuda:0`)".into(),
        ),
    )]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::ingest;

    fn codes(text: &str) -> Vec<String> {
        let inv = ingest(&[("t".to_string(), text.to_string())]);
        let kb = Kb::embedded();
        let mut v: Vec<String> = check_mis001(&inv, kb)
            .iter()
            .map(|f| f.code.clone())
            .collect();
        v.extend(check_mis002(&inv, kb).iter().map(|f| f.code.clone()));
        v
    }

    #[test]
    fn smi_header_next_to_another_nvcc_is_explained() {
        let text = "| NVIDIA-SMI 440.100      Driver Version: 440.100      CUDA Version: 10.2     |\nCuda compilation tools, release 10.1, V10.1.243\n";
        assert_eq!(codes(text), vec!["MIS001"]);
        let same = "| NVIDIA-SMI 440.100      Driver Version: 440.100      CUDA Version: 10.2     |\nCuda compilation tools, release 10.2, V10.2.89\n";
        assert!(codes(same).is_empty());
    }

    #[test]
    fn renumbering_needs_a_nonzero_choice_and_device_zero() {
        let text = "Run 'CUDA_VISIBLE_DEVICES=5 python3 train.py'\n[torch.cuda.FloatTensor of size 1x2 (GPU 0)]\n";
        assert_eq!(codes(text), vec!["MIS002"]);
        assert!(codes("Run 'CUDA_VISIBLE_DEVICES=0 python3 train.py'\n(GPU 0)\n").is_empty());
        assert!(codes("Run 'CUDA_VISIBLE_DEVICES=5 python3 train.py'\n").is_empty());
    }
}
