//! Hints: when no rule names a cause, what the report mentions still says
//! where to look (MIG, NVSwitch, onnxruntime, TensorRT, cuDNN, the
//! environment), or where it comes from (WSL2, a Mac, an AMD GPU) when
//! something failed there. Info findings, at most one per report (two for a
//! container under WSL2: WSL's and the container's), and none beside a
//! warning or an error (see [`super::run_rules`]).

use crate::finding::{Category, Finding, Severity};
use crate::inventory::{Inventory, Mention, Topic};
use crate::kb::Kb;

use super::facts;
use super::{Docs, Rule};

/// In code order: the first that applies is kept, so the platforms, which
/// decide what any other hint would mean, come first.
pub static RULES: &[&Rule] = &[
    &HINT008, &HINT009, &HINT003, &HINT002, &HINT011, &HINT001, &HINT004, &HINT005, &HINT006,
    &HINT007, &HINT010,
];

/// What makes a hint speak: a subject the report mentions in a failing line,
/// a platform fact of the report beside a failure, or either.
#[derive(Clone, Copy)]
enum Subject {
    Topic(Topic),
    Platform(fn(&Inventory) -> Option<(String, String)>),
    /// The topic where a failing line names it, else the platform (named
    /// by the third field) beside a failure.
    TopicOrPlatform(
        Topic,
        fn(&Inventory) -> Option<(String, String)>,
        &'static str,
    ),
}

/// One hint rule: its code, name, category, what makes it speak, what to
/// say and check, and its sources.
macro_rules! hint_rule {
    ($id:ident, $fn:ident, $code:literal, $name:literal, $cat:expr, $subject_of:expr,
     $subject:literal, $why:literal, $fix:literal, $sources:expr) => {
        pub static $id: Rule = Rule {
            code: $code,
            name: $name,
            category: $cat,
            severity: Severity::Info,
            summary: concat!("No rule names a cause, and the report mentions ", $subject, ": where to look."),
            semantics: &[],
            docs: Docs {
                what_it_checks: concat!("Reports in which no rule found a warning or an error but a line mentions ", $subject, " (for a platform: the report is from it and something failed there, an error the catalog read or a line about the GPU or CUDA that reads as a failure). Only the first hint that applies is kept (platforms first; under WSL2 the container hint too), and none when another finding already names its category."),
                why_it_breaks: $why,
                how_to_fix: $fix,
                sources: $sources,
            },
            check: $fn,
            superseded_by: &[],
        };

        fn $fn(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
            hint(&$id, inv, $subject_of, $subject)
        }
    };
}

fn mention(inv: &Inventory, topic: Topic) -> Option<&Mention> {
    inv.setting.mentions.iter().find(|m| m.topic == topic)
}

/// Something failed in the report: an error the catalog read, else a line
/// about the GPU or CUDA that reads as a failure.
fn failure(inv: &Inventory) -> Option<(String, String)> {
    if let Some(e) = inv.errors.first() {
        return Some((e.text.clone(), e.source.clone()));
    }
    mention(inv, Topic::Gpu)
        .filter(|m| m.failing)
        .map(|m| (m.text.clone(), m.source.clone()))
}

/// An NVSwitch system: one the report names (DGX A100, HGX H100), or eight
/// or more GPUs of the SXM parts that only an HGX 8-GPU baseboard seats
/// eight of (A100/A800 SXM4, H100/H800 SXM, H200, B200).
fn nvswitch_system(inv: &Inventory) -> Option<(String, String)> {
    if let Some(b) = &inv.setting.nvswitch_board {
        return Some((b.value.clone(), b.source.clone()));
    }
    let names: Vec<&crate::inventory::Fact<String>> =
        inv.gpus.iter().filter_map(|g| g.name.as_ref()).collect();
    let hgx = |n: &str| {
        let l = n.to_ascii_lowercase();
        l.contains("a100-sxm")
            || l.contains("a800-sxm")
            || l.contains("h100 80gb hbm3")
            || l.contains("h100-sxm")
            || l.contains("h800")
            || l.contains("h200")
            || l.contains("b200")
    };
    (names.len() >= 8 && names.iter().all(|n| hgx(&n.value))).then(|| {
        (
            format!("{} x {}", names.len(), names[0].value),
            names[0].source.clone(),
        )
    })
}

fn wsl(inv: &Inventory) -> Option<(String, String)> {
    let f = inv.wsl.is_wsl.as_ref().filter(|f| f.value)?;
    Some(("WSL2".to_string(), f.source.clone()))
}

fn container(inv: &Inventory) -> Option<(String, String)> {
    if let Some(r) = &inv.container.runtime {
        return Some((format!("a {} container", r.value), r.source.clone()));
    }
    let k = inv.container.kubernetes.as_ref().filter(|k| k.value)?;
    Some(("Kubernetes".to_string(), k.source.clone()))
}

fn macos(inv: &Inventory) -> Option<(String, String)> {
    if !facts::is_macos(inv) {
        return None;
    }
    let k = inv.os.kind.as_ref()?;
    Some(("macOS".to_string(), k.source.clone()))
}

fn amd(inv: &Inventory) -> Option<(String, String)> {
    if !facts::has_amd_gpu(inv)
        || inv.has_nvidia_hardware()
        || inv.gpus.iter().any(|g| g.name.is_some())
    {
        return None;
    }
    let p = inv
        .pci
        .iter()
        .find(|p| p.vendor == crate::inventory::GpuVendor::Amd);
    match (p, inv.amd.gfx_targets.first()) {
        (Some(p), _) => Some((
            format!("AMD GPU {}", p.name.as_deref().unwrap_or(&p.device_id)),
            p.source.clone(),
        )),
        (None, Some(g)) => Some((format!("AMD gfx target {}", g.value), g.source.clone())),
        (None, None) => inv
            .amd
            .kfd_present
            .as_ref()
            .map(|k| ("AMD's /dev/kfd".to_string(), k.source.clone())),
    }
}

fn hint(rule: &'static Rule, inv: &Inventory, subject_of: Subject, subject: &str) -> Vec<Finding> {
    // A mention in a line that reads as a failure, or any mention beside an
    // error the catalog read: a working setup's lines that name cuDNN or
    // TensorRT say nothing is wrong.
    let mentioned = match subject_of {
        // A collective speaks only where it hangs: NCCL lines beside an
        // unrelated error say nothing about P2P.
        Subject::Topic(t) | Subject::TopicOrPlatform(t, _, _) => mention(inv, t)
            .filter(|m| m.failing || (!inv.errors.is_empty() && t != Topic::Collective)),
        Subject::Platform(_) => None,
    };
    let (said, mut f) = match (mentioned, subject_of) {
        (Some(m), _) => (
            format!("the report mentions {subject}"),
            rule.finding(String::new()).evidence(
                format!("mention of {subject}"),
                &m.text,
                &m.source,
            ),
        ),
        (None, Subject::Topic(_)) => return vec![],
        (None, Subject::Platform(of) | Subject::TopicOrPlatform(_, of, _)) => {
            let (Some((what, at)), Some((text, source))) = (of(inv), failure(inv)) else {
                return vec![];
            };
            let said = match subject_of {
                Subject::TopicOrPlatform(_, _, noun) => {
                    format!("the report comes from {noun} ({what}) and something failed there")
                }
                _ => format!("the report comes from {subject} and something failed there"),
            };
            (
                said,
                rule.finding(String::new())
                    .evidence("platform", what, at)
                    .evidence("what failed", text, source),
            )
        }
    };
    f.message = format!(
        "No rule found a cause here, but {said}. {} {}",
        rule.docs.why_it_breaks, "This is a hint from the report's words, not a verdict."
    );
    vec![f.fix_note(rule.docs.how_to_fix)]
}

hint_rule!(HINT001, check_hint001, "HINT001", "hint-mig", Category::Mig, Subject::Topic(Topic::Mig),
    "MIG",
    "Under MIG a GPU is not a CUDA device itself, each compute instance is: CUDA_VISIBLE_DEVICES takes MIG UUIDs, a process enumerates one MIG instance (CUDA 11 and 12), and a GPU in MIG mode with no instances gives CUDA no device.",
    "Run `nvidia-smi -L` (MIG devices and their UUIDs) and `nvidia-smi mig -lgi`; select an instance with `CUDA_VISIBLE_DEVICES=MIG-<uuid>` and run one process per instance.",
    &["https://docs.nvidia.com/datacenter/tesla/mig-user-guide/ (CUDA device enumeration)"]);

hint_rule!(HINT002, check_hint002, "HINT002", "hint-nvswitch", Category::FabricManager, Subject::TopicOrPlatform(Topic::Nvswitch, nvswitch_system, "an NVSwitch system"),
    "NVSwitch or the fabric manager (or comes from an NVSwitch system, a DGX or HGX 8-GPU board)",
    "On NVSwitch systems (HGX 8-GPU boards, DGX) CUDA and NCCL need nvidia-fabricmanager running at exactly the driver's version; without it nvidia-smi still lists the GPUs, but CUDA reports 'system not yet initialized' and whatever starts CUDA (a CUDA sample, a validator pod, NCCL) fails.",
    "Run `systemctl status nvidia-fabricmanager` and `nvidia-smi -q | grep -i -A2 fabric`; install the fabric manager of the driver's exact version and start it.",
    &[
        "https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/",
        "https://docs.nvidia.com/ai-enterprise/release-8/8.0/infra-software/vgpu/features/nvswitch.html (NVSwitch platforms: HGX A100, H100, H800, H200, B200, B300 8-GPU baseboards)",
    ]);

hint_rule!(HINT003, check_hint003, "HINT003", "hint-wsl", Category::Wsl, Subject::Platform(wsl),
    "WSL2",
    "Under WSL2 the GPU comes from the Windows driver through /usr/lib/wsl/lib and /dev/dxg; a Linux NVIDIA driver installed inside WSL, a libcuda from elsewhere on the loader path, or a Windows driver too old for WSL CUDA breaks it.",
    "In WSL run `ls /usr/lib/wsl/lib; ls -l /dev/dxg; nvidia-smi`; install or update the NVIDIA driver on Windows only, never a Linux driver inside WSL (the CUDA toolkit for WSL-Ubuntu is fine).",
    &["https://docs.nvidia.com/cuda/wsl-user-guide/index.html"]);

hint_rule!(HINT004, check_hint004, "HINT004", "hint-onnxruntime", Category::OnnxruntimeCuda, Subject::Topic(Topic::Onnxruntime),
    "onnxruntime",
    "onnxruntime-gpu's CUDA execution provider loads only when its CUDA and cuDNN majors match the libraries it finds, and the CPU-only onnxruntime package installed beside it takes precedence; otherwise sessions quietly fall back to the CPU.",
    "Run `python -c \"import onnxruntime as ort; print(ort.__version__, ort.get_device(), ort.get_available_providers())\"` and `pip list | grep -i onnxruntime`; keep only onnxruntime-gpu, of a release built for the installed CUDA and cuDNN majors.",
    &["https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements"]);

hint_rule!(HINT005, check_hint005, "HINT005", "hint-tensorrt", Category::TensorrtMismatch, Subject::Topic(Topic::Tensorrt),
    "TensorRT",
    "A TensorRT engine runs only under the TensorRT version it was built with (and on its GPU architecture), and the TensorRT libraries must match the CUDA major they were built for.",
    "Compare `python -c \"import tensorrt; print(tensorrt.__version__)\"` (or `ldconfig -p | grep nvinfer`) with the version the engine was built with; rebuild the engine with the TensorRT that runs it.",
    &["https://docs.nvidia.com/deeplearning/tensorrt/latest/getting-started/support-matrix.html"]);

hint_rule!(HINT006, check_hint006, "HINT006", "hint-cudnn", Category::CudnnMismatch, Subject::Topic(Topic::Cudnn),
    "cuDNN",
    "cuDNN must be of the major the framework was built for, and the copy on the loader path (a system libcudnn, one in LD_LIBRARY_PATH) can shadow the one the wheel brings.",
    "Run `ldconfig -p | grep cudnn`, `pip list | grep -i cudnn` and the framework's own view (for torch `python -c \"import torch; print(torch.backends.cudnn.version())\"`, for jax `pip list | grep -E 'jax|nvidia-cudnn'`); keep one cuDNN of the framework's major on the path.",
    &["https://docs.nvidia.com/deeplearning/cudnn/latest/reference/support-matrix.html"]);

hint_rule!(HINT007, check_hint007, "HINT007", "hint-env", Category::EnvVar, Subject::Topic(Topic::EnvVar),
    "CUDA_VISIBLE_DEVICES or LD_LIBRARY_PATH",
    "CUDA_VISIBLE_DEVICES decides which GPUs a process sees (empty, quoted or out of range hides them all), and LD_LIBRARY_PATH can put another CUDA's libraries before the ones a wheel brings.",
    "In the failing process print them (`env | grep -E 'CUDA_VISIBLE_DEVICES|LD_LIBRARY_PATH'`); unset CUDA_VISIBLE_DEVICES or set it to plain indices or UUIDs, and take other CUDA installs off LD_LIBRARY_PATH.",
    &["https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#env-vars"]);

hint_rule!(HINT008, check_hint008, "HINT008", "hint-macos", Category::MacosNoCuda, Subject::Platform(macos),
    "macOS",
    "macOS has no CUDA: the last CUDA for macOS was 10.2, Apple GPUs never ran it, and the macOS builds of torch, TensorFlow and most GPU tools have no CUDA in them. A GPU option that does not appear or a CUDA device count of 0 there is the platform, not a broken install.",
    "Use the Mac's GPU through what the tool offers for it: torch's MPS backend (`torch.backends.mps.is_available()`), MLX, TensorFlow's tensorflow-metal, or the program's Metal build; for CUDA-only tools use a Linux machine with an NVIDIA GPU.",
    &["https://docs.nvidia.com/cuda/archive/10.2/cuda-toolkit-release-notes/index.html (the last CUDA release for macOS)", "https://pytorch.org/docs/stable/notes/mps.html", "https://developer.apple.com/metal/pytorch/"]);

hint_rule!(HINT009, check_hint009, "HINT009", "hint-amd", Category::AmdRocm, Subject::Platform(amd),
    "an AMD GPU",
    "CUDA builds run only on NVIDIA GPUs; on an AMD GPU a program needs its ROCm (Linux) or DirectML/Vulkan/ZLUDA (Windows) build, and ROCm itself supports a list of gfx targets.",
    "Check which build the program runs (`python -c \"import torch; print(torch.version.cuda, torch.version.hip)\"` for torch) and install its ROCm build on Linux (`pip install torch --index-url https://download.pytorch.org/whl/rocmX.Y`), checking the GPU's gfx target against ROCm's support list; on Windows use the program's DirectML, Vulkan or ZLUDA build.",
    &["https://rocm.docs.amd.com/en/latest/compatibility/compatibility-matrix.html", "https://pytorch.org/get-started/locally/"]);

hint_rule!(HINT010, check_hint010, "HINT010", "hint-container", Category::Container, Subject::Platform(container),
    "a container",
    "A container gets the GPU only when its runtime is asked for it (`docker run --gpus all`, Compose's `deploy.resources.reservations.devices` with `driver: nvidia`, a Kubernetes `nvidia.com/gpu` limit) and the NVIDIA Container Toolkit on the host mounts the host driver's libraries and device nodes into it; its image's CUDA must also be one the host driver supports.",
    "Inside the container run `nvidia-smi` (missing or failing: the container did not get the GPU) and on the host `nvidia-ctk --version; docker info | grep -i runtime`; start it with `--gpus all` (or the Compose/Kubernetes equivalent), and compare the image's CUDA_VERSION with the host's nvidia-smi 'CUDA Version'.",
    &["https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html", "https://docs.docker.com/compose/how-tos/gpu-support/"]);

hint_rule!(HINT011, check_hint011, "HINT011", "hint-collective-hang", Category::PlatformPosture, Subject::Topic(Topic::Collective),
    "collective work across GPUs (NCCL, all-reduce, tensor parallelism, DDP) that hangs",
    "Collectives between GPUs on PCIe go peer to peer (P2P), and the platform can block that traffic: with PCIe Access Control Services (ACS) on in a PCIe switch or root port, or the IOMMU (VT-d, AMD-Vi) translating the GPUs' DMA, P2P writes are redirected or dropped and NCCL hangs, often only between GPUs behind one switch or after the first run; a slow or broken link (Xid errors) does it too. On NVSwitch systems the fabric manager must be running.",
    "Run it once with `NCCL_P2P_DISABLE=1 NCCL_DEBUG=INFO`: if it no longer hangs, P2P is what is blocked. Check `nvidia-smi topo -m`, `sudo lspci -vvv | grep -i acsctl` (ACS on shows SrcValid+) and `cat /proc/cmdline` (intel_iommu, amd_iommu), then turn ACS off (BIOS, or setpci on the switch ports) or the IOMMU (BIOS VT-d/IOMMU off, or `iommu=pt`), and confirm with NCCL's all_reduce_perf.",
    &["https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html#pci-access-control-services-acs", "https://github.com/NVIDIA/nccl/issues/667", "https://github.com/vllm-project/vllm/issues/9920"]);

/// Keep at most one hint: none beside a warning or an error, or when another
/// finding already names the hint's category; else the first in code order.
pub fn settle(findings: &mut Vec<Finding>) {
    let is_hint = |f: &Finding| f.code.starts_with("HINT");
    let loud = findings
        .iter()
        .any(|f| !is_hint(f) && f.severity >= Severity::Warning);
    let named: Vec<Category> = findings
        .iter()
        .filter(|f| !is_hint(f))
        .map(|f| f.category)
        .collect();
    let mut kept = false;
    let mut kept_wsl = false;
    findings.retain(|f| {
        if !is_hint(f) {
            return true;
        }
        // A container under WSL2: the GPU passes through both (the Windows
        // driver into WSL, then the container runtime into the container),
        // so where to look is both places.
        let beside_wsl = kept_wsl && f.code == HINT010.code;
        let keep = !loud && (!kept || beside_wsl) && !named.contains(&f.category);
        kept |= keep;
        kept_wsl |= keep && f.code == HINT003.code;
        keep
    });
}
