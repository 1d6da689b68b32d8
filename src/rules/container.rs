//! Container family: a container started without GPUs, and an image whose
//! CUDA is newer than the host driver.

use crate::finding::{Category, Finding, Severity};
use crate::inventory::{ErrorKind, Inventory};
use crate::kb::{driver_meets, Kb, Semantic};
use crate::version::{CudaVersion, DriverVersion};

use super::facts;
use super::{CompatSemantic, Docs, FindingExt, Rule};

pub static RULES: &[&Rule] = &[
    &CTR001, &CTR002, &CTR003, &CTR005, &CTR004, &CTR006, &CTR007,
];

pub static CTR001: Rule = Rule {
    code: "CTR001",
    name: "container-without-gpus",
    category: Category::Container,
    severity: Severity::Error,
    summary: "A container expected to use a GPU was started without one (no --gpus, or NVIDIA_VISIBLE_DEVICES=void/none).",
    semantics: &[],
    docs: Docs {
        what_it_checks: "Inside a container (docker, podman, containerd, Kubernetes) where a GPU is expected (a CUDA framework, CUDA_VERSION or NVIDIA_REQUIRE_CUDA from a CUDA image, NVIDIA_VISIBLE_DEVICES set, or an NVIDIA GPU visible in /sys): whether the driver lists GPUs, whether /dev/nvidia* nodes exist, and NVIDIA_VISIBLE_DEVICES.",
        why_it_breaks: "A container sees a GPU only when the NVIDIA container toolkit injects the device nodes and the host's driver libraries, which happens when it is started with `--gpus` (docker), a CDI device (podman), or a `nvidia.com/gpu` resource (Kubernetes). Without that, or with NVIDIA_VISIBLE_DEVICES set to `void` or `none`, the image's CUDA finds no driver or no device.",
        how_to_fix: "Start the container with GPUs: `docker run --gpus all IMAGE` (the host needs nvidia-container-toolkit), `podman run --device nvidia.com/gpu=all IMAGE`, or in Kubernetes a `resources.limits: nvidia.com/gpu: 1` with the NVIDIA device plugin. Do not set NVIDIA_VISIBLE_DEVICES to void/none in the image or the pod.",
        sources: &[
            "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html (NVIDIA_VISIBLE_DEVICES: all, none, void)",
            "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html",
            "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/cdi-support.html",
        ],
    },
    check: check_ctr001,
    superseded_by: &[],
};

fn gpu_expected(inv: &Inventory, kb: &Kb) -> Vec<String> {
    let mut why = Vec::new();
    for rt in facts::runtimes(inv, kb) {
        why.push(format!(
            "{} in {} is a CUDA {} build",
            rt.what, rt.env.path, rt.cuda.value
        ));
    }
    for var in [
        "CUDA_VERSION",
        "NVIDIA_REQUIRE_CUDA",
        "NVIDIA_VISIBLE_DEVICES",
    ] {
        if inv.env.contains_key(var) {
            why.push(format!("{var} is set"));
        }
    }
    if inv.nvidia_pci().next().is_some() {
        why.push("an NVIDIA GPU is on the host's PCI bus".into());
    }
    why
}

fn check_ctr001(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    // A GPU the report only names in its words (the node's `NVIDIA L4`) is
    // no GPU the container's tools listed.
    let listed = inv.gpus.iter().any(|g| {
        g.name
            .as_ref()
            .map_or(true, |n| !crate::ingest::prose::is_prose(&n.source))
    });
    if !facts::in_container(inv) || listed {
        return vec![];
    }
    // A start the NVIDIA runtime refused (`requirement error`, `driver 7.0 < image 7.5`) made
    // no container at all: there are no devices to miss, and `--gpus` was given.
    // Nor does a `docker build` step: builds never get GPUs (ERR010 says so).
    let build_step = |t: &str| {
        crate::ingest::clean::has_ci(t, "failed to solve")
            || crate::ingest::clean::has_ci(t, "returned a non-zero code")
    };
    if inv.errors.iter().any(|e| {
        e.kind == ErrorKind::ContainerRequirementUnsatisfied
            || (e.kind == ErrorKind::ContainerNoGpuRuntime && build_step(&e.text))
    }) {
        return vec![];
    }
    let why = gpu_expected(inv, kb);
    if why.is_empty() {
        return vec![];
    }
    // A paste that lists no GPU has simply not shown one: only something that
    // failed (an error, CUDA unavailable) says the container lacks them.
    let pasted = inv
        .container
        .runtime
        .as_ref()
        .is_some_and(|r| r.source.contains(" line "));
    let failed = !inv.errors.is_empty() || facts::cuda_said_unavailable(inv).is_some();
    if pasted && !failed {
        return vec![];
    }
    let nvd = inv.env.get("NVIDIA_VISIBLE_DEVICES");
    let hidden = nvd.filter(|v| {
        let s = v.value.trim().to_lowercase();
        s == "void" || s == "none" || s.is_empty()
    });
    let nodes = inv.nvidia.device_nodes.iter().any(|n| {
        n.path == "/dev/nvidiactl"
            || n.path
                .trim_start_matches("/dev/nvidia")
                .parse::<u32>()
                .is_ok()
    });
    if hidden.is_none() && nodes {
        return vec![];
    }
    let runtime = inv
        .container
        .runtime
        .as_ref()
        .map(|f| f.value.as_str())
        .filter(|r| !r.starts_with("a container"))
        .map_or("This container".to_string(), |r| {
            format!("This {r} container")
        });
    let msg = match hidden {
        Some(v) => format!(
            "{runtime} has NVIDIA_VISIBLE_DEVICES={:?}, so the NVIDIA runtime gives it no GPU, although a GPU is expected ({}).",
            v.value,
            why.join("; ")
        ),
        None => format!(
            "{runtime} has no /dev/nvidia* devices and the driver lists no GPU: it was started without GPUs, although a GPU is expected ({}).",
            why.join("; ")
        ),
    };
    let mut f = CTR001.finding(msg);
    if let Some(r) = &inv.container.runtime {
        f = f.fact("container runtime", r);
    }
    if let Some(v) = nvd {
        f = f.fact("NVIDIA_VISIBLE_DEVICES", v);
    }
    if !nodes {
        // Read from /dev on the machine; a paste only shows that it lists none.
        f = if pasted {
            f.evidence("/dev/nvidia* device nodes", "none listed", "the input")
        } else {
            f.evidence("/dev/nvidia* device nodes", "none", "/dev")
        };
    }
    let (cmd, note) = if facts::is_kubernetes(inv) {
        (
            None,
            "request a GPU in the pod spec: resources.limits: {nvidia.com/gpu: 1} (the NVIDIA device plugin or GPU operator must run on the node); do not set NVIDIA_VISIBLE_DEVICES=void/none".to_string(),
        )
    } else if runtime == "podman" {
        (
            Some("podman run --device nvidia.com/gpu=all IMAGE".to_string()),
            "needs nvidia-container-toolkit and a CDI spec on the host (`sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml`)".to_string(),
        )
    } else {
        (
            Some(if hidden.is_some() {
                "docker run --gpus all -e NVIDIA_VISIBLE_DEVICES=all IMAGE".to_string()
            } else {
                "docker run --gpus all IMAGE".to_string()
            }),
            "the host needs nvidia-container-toolkit (`sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker`); in compose: deploy.resources.reservations.devices with capabilities: [gpu]".to_string(),
        )
    };
    vec![match cmd {
        Some(c) => f.fix_command(c, Some(note)),
        None => f.fix_note(note),
    }]
}

pub static CTR002: Rule = Rule {
    code: "CTR002",
    name: "image-cuda-newer-than-host-driver",
    category: Category::DriverTooOld,
    severity: Severity::Error,
    summary: "The container image's CUDA (CUDA_VERSION, NVIDIA_REQUIRE_CUDA) is newer than the host driver supports.",
    semantics: &[CompatSemantic::Toolkit, CompatSemantic::MinorVersion, CompatSemantic::Forward],
    docs: Docs {
        what_it_checks: "In a container (or an unpacked image probed with --root): the image's CUDA_VERSION, and NVIDIA_REQUIRE_CUDA evaluated as nvidia-container-cli does (space-separated constraints are ORed, comma-separated conditions ANDed; `cuda`, `driver` and `brand` conditions), against the host driver's newest CUDA and version. Forward-compatibility eligibility is a datacenter GPU with the image's cuda-compat libraries present.",
        why_it_breaks: "The container uses the host's kernel module and, by default, the host's user-mode driver. An image built for a newer CUDA than the host driver supports is refused at start ('requirement error: unsatisfied condition: cuda>=X, please update your driver'), or, with the check disabled, fails like any runtime newer than its driver. Within the same major and at or above the floor it runs under minor-version compatibility. Across majors only forward compatibility helps: the image's /usr/local/cuda/compat libraries, which the NVIDIA runtime loads on datacenter GPUs (the `brand=tesla,driver>=X,driver<Y` clauses of NVIDIA_REQUIRE_CUDA); GeForce and most workstation GPUs fail with CUDA error 804.",
        how_to_fix: "Use an image whose CUDA the host driver supports (e.g. `nvidia/cuda:<that version>-...`), or upgrade the host driver to the image CUDA's toolkit driver. On datacenter GPUs a cuda-compat package matching the image also works.",
        sources: &[
            "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html (NVIDIA_REQUIRE_CUDA, NVIDIA_DISABLE_REQUIRE)",
            "https://docs.nvidia.com/deploy/cuda-compatibility/forward-compatibility.html",
            "https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html",
            "https://gitlab.com/nvidia/container-images/cuda (NVIDIA_REQUIRE_CUDA of the nvidia/cuda images)",
        ],
    },
    check: check_ctr002,
    superseded_by: &[],
};

/// Evaluate NVIDIA_REQUIRE_CUDA: Some(true/false), or None where a condition can't be decided.
pub fn require_satisfied(
    req: &str,
    cuda: Option<CudaVersion>,
    driver: Option<&DriverVersion>,
    brands: &[String],
) -> Option<bool> {
    let mut any_unknown = false;
    for constraint in req.split_whitespace() {
        let mut all = Some(true);
        for cond in constraint.split(',') {
            let r = eval_cond(cond, cuda, driver, brands);
            all = match (all, r) {
                (Some(false), _) | (_, Some(false)) => Some(false),
                (Some(true), Some(true)) => Some(true),
                _ => None,
            };
        }
        match all {
            Some(true) => return Some(true),
            None => any_unknown = true,
            Some(false) => {}
        }
    }
    if any_unknown {
        None
    } else {
        Some(false)
    }
}

fn eval_cond(
    cond: &str,
    cuda: Option<CudaVersion>,
    driver: Option<&DriverVersion>,
    brands: &[String],
) -> Option<bool> {
    let ops = [">=", "<=", "!=", "=", "<", ">"];
    let (key, op, val) = ops.iter().find_map(|op| {
        let i = cond.find(op)?;
        Some((cond[..i].trim(), *op, cond[i + op.len()..].trim()))
    })?;
    let cmp = |o: std::cmp::Ordering| match op {
        ">=" => o.is_ge(),
        "<=" => o.is_le(),
        "<" => o.is_lt(),
        ">" => o.is_gt(),
        "!=" => o.is_ne(),
        _ => o.is_eq(),
    };
    match key {
        "cuda" => {
            let want: CudaVersion = val.parse().ok()?;
            Some(cmp(cuda?.major_minor().cmp(&want.major_minor())))
        }
        "driver" => {
            let want: DriverVersion = val.parse().ok()?;
            Some(cmp(driver?.cmp(&want)))
        }
        "brand" => {
            if brands.is_empty() {
                return None;
            }
            let hit = brands.iter().any(|b| b.eq_ignore_ascii_case(val));
            Some(if op == "!=" { !hit } else { hit })
        }
        _ => None,
    }
}

fn check_ctr002(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let cuda_env = inv.env.get("CUDA_VERSION");
    let req_env = inv.env.get("NVIDIA_REQUIRE_CUDA");
    if cuda_env.is_none() && req_env.is_none() {
        return vec![];
    }
    let Some(max) = facts::driver_cuda_max(inv, kb) else {
        return vec![];
    };
    let drv = facts::driver(inv);
    let os = facts::driver_os(inv);
    let image_cuda: Option<CudaVersion> =
        cuda_env.and_then(|v| v.value.parse().ok()).or_else(|| {
            req_env.and_then(|r| {
                r.value.split_whitespace().next().and_then(|c| {
                    c.split(',').find_map(|cond| {
                        cond.trim()
                            .strip_prefix("cuda>=")
                            .and_then(|v| v.parse().ok())
                    })
                })
            })
        });
    let brands: Vec<String> = inv
        .gpus
        .iter()
        .filter_map(|g| g.brand.as_ref().map(|b| b.value.to_lowercase()))
        .collect();
    let disabled = inv.env.contains_key("NVIDIA_DISABLE_REQUIRE");
    let req_ok = req_env.and_then(|r| {
        if max.at_least && !max.from_driver {
            None
        } else {
            require_satisfied(&r.value, Some(max.value), drv.map(|d| &d.value), &brands)
        }
    });
    let newer = image_cuda.filter(|c| c.major_minor() > max.value && !max.at_least);
    if newer.is_none() && req_ok != Some(false) {
        return vec![];
    }
    let dc = facts::nvidia_gpus(inv, kb)
        .iter()
        .any(|g| g.is_datacenter());
    let compat = !inv.libraries.cuda_compat.is_empty() || inv.toolkits.iter().any(|t| t.has_compat);
    let drv_s = drv.map_or("unknown".to_string(), |d| d.value.to_string());
    let mut parts = Vec::new();
    let mut sev = Severity::Error;
    if let Some(c) = newer {
        let r = c.major_minor();
        let floor = kb.min_driver_for_cuda(&r, os, Semantic::MinorCompat);
        let above_floor = match (drv, &floor) {
            (Some(d), Some(f)) => driver_meets(&d.value, &f.driver),
            _ => true,
        };
        if r.major == max.value.major && above_floor {
            sev = Severity::Warning;
            parts.push(format!("the image is built for CUDA {c}, newer than the host driver's CUDA {} (driver {drv_s}); it runs under minor-version compatibility, with a limited feature set and no JIT of newer PTX", max.value));
        } else if dc && compat {
            sev = Severity::Warning;
            parts.push(format!("the image is built for CUDA {c}, another major (or below the floor) than the host driver's CUDA {} (driver {drv_s}); this datacenter GPU can run it through the image's cuda-compat libraries (forward compatibility), which the NVIDIA runtime loads when they are newer than the host driver", max.value));
        } else {
            let why = if dc {
                "forward compatibility would need the cuda-compat libraries, which this image lacks"
            } else {
                "forward compatibility (cuda-compat) works only on datacenter GPUs, so it cannot help here (CUDA error 804)"
            };
            parts.push(format!("the image is built for CUDA {c}, but the host driver {drv_s} supports at most CUDA {} and {why}", max.value));
        }
    }
    if req_ok == Some(false) {
        if disabled {
            parts.push("NVIDIA_REQUIRE_CUDA is not satisfied by this host, but NVIDIA_DISABLE_REQUIRE turns the check off".to_string());
        } else {
            sev = Severity::Error;
            parts.push(
                "NVIDIA_REQUIRE_CUDA is not satisfied by this host, so nvidia-container-cli refuses to start the container ('requirement error: unsatisfied condition: cuda>=...')"
                    .to_string(),
            );
        }
    }
    let mut f = CTR002
        .finding(format!("In this container {}.", parts.join("; ")))
        .at(sev);
    if let Some(c) = cuda_env {
        f = f.fact("CUDA_VERSION", c);
    }
    if let Some(r) = req_env {
        f = f.fact("NVIDIA_REQUIRE_CUDA", r);
    }
    if let Some(d) = drv {
        f = f.fact("host driver version", d);
    }
    f = max.cite(f);
    for l in &inv.libraries.cuda_compat {
        f = f.evidence("cuda-compat library", &l.version.value, &l.path);
    }
    if let Some(img) = image_cuda.and_then(|c| kb.cuda_image(&c)) {
        f = f.kb(img.kb());
    }
    let target_image = kb
        .cuda_images
        .row
        .iter()
        .filter(|r| r.cuda.major_minor() <= max.value)
        .max_by_key(|r| r.cuda);
    let toolkit =
        image_cuda.and_then(|c| kb.min_driver_for_cuda(&c.major_minor(), os, Semantic::Toolkit));
    let mut notes = Vec::new();
    if let Some(t) = target_image {
        f = f.kb(t.kb());
        let example =
            t.os.iter()
                .rev()
                .find(|o| o.starts_with("ubuntu"))
                .or(t.os.last())
                .filter(|_| t.flavors.iter().any(|fl| fl == "runtime"))
                .map(|os| format!(" (e.g. nvidia/cuda:{}-runtime-{os})", t.cuda))
                .unwrap_or_default();
        notes.push(format!(
            "use an image built for CUDA {} or older{example}",
            max.value
        ));
    }
    if let Some(t) = &toolkit {
        f = f.kb(t.kb.clone());
        notes.push(format!(
            "or upgrade the host driver to {} or newer",
            t.driver
        ));
    }
    if notes.is_empty() {
        notes.push(
            "use an image whose CUDA the host driver supports, or upgrade the host driver".into(),
        );
    }
    vec![f.fix_note(notes.join(", "))]
}

pub static CTR003: Rule = Rule {
    code: "CTR003",
    name: "jetson-image-for-another-l4t-release",
    category: Category::Container,
    severity: Severity::Error,
    summary: "A Jetson container image is tagged for an older L4T (JetPack) major release than the host runs: its CUDA does not work on that host.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "On a Jetson, the L4T major release of the host (/etc/nv_tegra_release's `# R36 (release)`, `L4T 36.4.0`, `JetPack 6`) against the release an l4t image's tag names (`dustynv/l4t-ml:r35.4.1`, `nvcr.io/nvidia/l4t-base:r32.7.1`), when the image's is the older one (an image newer than the host is CTR005's).",
        why_it_breaks: "Jetson has no discrete driver stack to share: a JetPack 4 (L4T R32) image gets CUDA, cuDNN and TensorRT mounted from the host by the NVIDIA runtime, and JetPack 5 and 6 (R35, R36) images carry a CUDA built against their own release's driver. An image runs only on a host of its own L4T major; on another one, CUDA finds no usable device or libraries (torch.cuda.is_available() is False).",
        how_to_fix: "Use the image tagged for the host's release (`cat /etc/nv_tegra_release`; jetson-containers' `autotag` picks it), or rebuild the image on that release's base.",
        sources: &[
            "https://github.com/dusty-nv/jetson-containers (container images are compatible with other minor versions of their own JetPack/L4T release: R32.7 on R32.7, R35.x on R35.x)",
            "https://developer.nvidia.com/embedded/jetpack-archive (JetPack 4.x ships L4T R32.x, 5.x R35.x, 6.x R36.x)",
            "https://github.com/dusty-nv/jetson-containers/issues/725",
        ],
    },
    check: check_ctr003,
    superseded_by: &[],
};

pub static CTR005: Rule = Rule {
    code: "CTR005",
    name: "jetson-image-newer-than-host-l4t",
    category: Category::DriverTooOld,
    severity: Severity::Error,
    summary: "A Jetson container image is tagged for a newer L4T (JetPack) major release than the host runs: the host's driver is older than the image's CUDA needs.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "On a Jetson, the L4T major release of the host against the release an l4t image's tag names, when the image's is the newer one.",
        why_it_breaks: "On Jetson the GPU driver is part of L4T, and each JetPack's CUDA needs the driver of its own L4T release: JetPack 5 (R34/R35) brings CUDA 11.4 and JetPack 6 (R36) CUDA 12.2, which the R32 driver of JetPack 4 (CUDA 10.2) cannot run. The container starts, and CUDA fails at initialization ('cudaGetDeviceCount returned 3 -> initialization error').",
        how_to_fix: "Use the image tagged for the host's release (`cat /etc/nv_tegra_release`; jetson-containers' `autotag` picks it), or flash the Jetson with the JetPack the image was built for, where the module supports it.",
        sources: &[
            "https://developer.nvidia.com/embedded/jetpack-archive (JetPack 4.x ships L4T R32.x with CUDA 10.2, 5.x R34/R35 with CUDA 11.4, 6.x R36 with CUDA 12.2)",
            "https://github.com/dusty-nv/jetson-containers/issues/149",
        ],
    },
    check: check_ctr005,
    superseded_by: &[],
};

fn check_ctr003(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    l4t_mismatch(&CTR003, inv, false)
}

fn check_ctr005(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    l4t_mismatch(&CTR005, inv, true)
}

/// An l4t image of another L4T major than the host's: `newer` picks the
/// image newer than the host (the host's driver is too old for it) or older.
fn l4t_mismatch(rule: &'static Rule, inv: &Inventory, newer: bool) -> Vec<Finding> {
    let st = &inv.setting;
    let (Some(host), Some(image), Some(rel)) = (&st.l4t_host, &st.l4t_image, &st.l4t_image_release)
    else {
        return vec![];
    };
    let (rel, name) = (&rel.value, &image.value);
    if *rel == host.value || (*rel > host.value) != newer {
        return vec![];
    }
    let why = if newer {
        "the host's L4T driver is older than the CUDA of the image's JetPack needs"
    } else {
        "a Jetson image runs only on a host of its own L4T major release"
    };
    let mut f = rule
        .finding(format!(
            "The image {name} is built for L4T R{rel}, and the host runs L4T R{}: {why}.",
            host.value
        ))
        .evidence("host L4T release", format!("R{}", host.value), &host.source)
        .evidence(
            "image's L4T release",
            format!("R{rel} ({name})"),
            &image.source,
        );
    let name = name.as_str();
    f = f.observed(inv.errors_of(&[
        ErrorKind::CudaUnavailable,
        ErrorKind::CudaLibraryMissing,
        ErrorKind::NoDevice,
    ]));
    // jetson-containers' own images: autotag picks the tag built for the host's release.
    let repo = name.split(':').next().unwrap_or(name);
    let cmd = match repo.strip_prefix("dustynv/") {
        Some(pkg) => format!("jetson-containers run $(autotag {pkg})"),
        None => format!(
            "docker run --runtime nvidia -it {repo}:<a tag for L4T R{}>",
            host.value
        ),
    };
    vec![f.fix_command(
        cmd,
        Some(format!(
            "an image built for L4T R{}; `cat /etc/nv_tegra_release` names the host's release",
            host.value
        )),
    )]
}

pub static CTR004: Rule = Rule {
    code: "CTR004",
    name: "k3s-nvidia-runtime-not-default",
    category: Category::Container,
    severity: Severity::Warning,
    summary: "On k3s or RKE2, GPU pods get the GPU only with `runtimeClassName: nvidia`: their bundled containerd registers the nvidia runtime but does not make it the default.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "A report from a k3s or RKE2 cluster (the distribution named, /var/lib/rancher paths) with a pod's runtimeClassName named, or with CUDA finding no device, no driver or an 'insufficient' driver where no driver version is in sight. It is an error when the report names runtimeClassName, a warning otherwise.",
        why_it_breaks: "k3s and RKE2 run their own containerd and regenerate its config.toml at every start, so the NVIDIA Container Toolkit's edit to make nvidia the default runtime does not stay: k3s detects the nvidia runtime and offers it as a RuntimeClass, and only pods that ask for it get the driver's libraries and devices. A pod without it sees no driver; CUDA samples then report 'no CUDA-capable device' or error 35, 'driver version is insufficient', although the host's driver is fine.",
        how_to_fix: "Add `runtimeClassName: nvidia` to the GPU pods (with the RuntimeClass `nvidia`, handler `nvidia`), or make nvidia the default runtime the way the distribution keeps it: k3s `--default-runtime nvidia` (or `default-runtime: nvidia` in /etc/rancher/k3s/config.yaml), RKE2 a config.toml.tmpl with nvidia as the default runtime; with the GPU Operator point CONTAINERD_CONFIG at that template.",
        sources: &[
            "https://docs.k3s.io/advanced#nvidia-container-runtime-support (k3s finds the nvidia runtime, pods select it with runtimeClassName: nvidia; --default-runtime)",
            "https://docs.k3s.io/advanced#configuring-containerd (config.toml is regenerated; config.toml.tmpl is kept)",
            "https://github.com/NVIDIA/gpu-operator/issues/415",
            "https://github.com/NVIDIA/gpu-operator/issues/473",
        ],
    },
    check: check_ctr004,
    superseded_by: &[],
};

/// The errors a k3s or RKE2 pod without the nvidia runtime shows (a driver
/// that fails to load on the node is the node's, not the pod's).
pub fn k3s_pod_without_runtime(inv: &Inventory, kind: ErrorKind) -> bool {
    inv.setting.k3s.is_some()
        && facts::driver(inv).is_none()
        && matches!(
            kind,
            ErrorKind::InsufficientDriver
                | ErrorKind::NoDevice
                | ErrorKind::LibcudaMissing
                | ErrorKind::CudaUnavailable
        )
}

fn check_ctr004(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let Some(k3s) = &inv.setting.k3s else {
        return vec![];
    };
    let errs: Vec<_> = inv
        .errors
        .iter()
        .filter(|e| k3s_pod_without_runtime(inv, e.kind))
        .collect();
    let named = inv.setting.runtime_class_named.as_ref().filter(|f| f.value);
    if errs.is_empty() && named.is_none() {
        return vec![];
    }
    let mut f = CTR004
        .finding(format!(
            "This is a {} cluster: its containerd offers the nvidia runtime as a RuntimeClass, not as the default, so a pod without `runtimeClassName: nvidia` gets no driver and no GPU.",
            k3s.value
        ))
        .evidence("Kubernetes distribution", &k3s.value, &k3s.source);
    if let Some(n) = named {
        f = f.evidence("runtimeClassName named", "true", &n.source);
        f.severity = Severity::Error;
    }
    f = f.observed(errs);
    vec![f.fix_command(
        "kubectl patch deployment NAME -p '{\"spec\":{\"template\":{\"spec\":{\"runtimeClassName\":\"nvidia\"}}}}'".to_string(),
        Some(format!(
            "or make nvidia the default runtime: {}",
            if k3s.value == "k3s" {
                "start k3s with --default-runtime nvidia (default-runtime: nvidia in /etc/rancher/k3s/config.yaml)"
            } else {
                "a /var/lib/rancher/rke2/agent/etc/containerd/config.toml.tmpl that sets nvidia as the default runtime (CONTAINERD_CONFIG pointed at it with the GPU Operator)"
            }
        )),
    )]
}

pub static CTR006: Rule = Rule {
    code: "CTR006",
    name: "cdi-spec-without-nvidia-uvm",
    category: Category::Container,
    severity: Severity::Error,
    summary: "The CDI spec gives containers the NVIDIA device nodes without /dev/nvidia-uvm: nvidia-smi works inside, CUDA does not.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "A pasted CDI spec (`nvidia-ctk cdi generate`, /etc/cdi/nvidia.yaml) whose `containerEdits` list NVIDIA device nodes but not /dev/nvidia-uvm. An error when the report shows CUDA failing (unavailable, no device, initialisation failed), a warning otherwise.",
        why_it_breaks: "A CDI engine (podman, containerd, docker with CDI) creates in the container exactly the device nodes the spec lists. nvidia-smi needs only /dev/nvidiactl and /dev/nvidiaN, but CUDA also needs /dev/nvidia-uvm (unified memory). nvidia-ctk writes the nodes that exist when it runs: a spec generated before the nvidia-uvm module had created its nodes (right after a driver install, without a reboot) lacks them, and stays that way.",
        how_to_fix: "Create the nodes on the host (`sudo nvidia-modprobe -u -c=0`, or run any CUDA program once), then generate the spec again: `sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml`, and check it with `grep nvidia-uvm /etc/cdi/nvidia.yaml`.",
        sources: &[
            "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/cdi-support.html (generate the spec again after the driver or its device nodes change)",
            "https://github.com/NVIDIA/nvidia-container-toolkit/issues/50 (a spec without nvidia-uvm: nvidia-smi worked in the container, torch found no CUDA)",
        ],
    },
    check: check_ctr006,
    superseded_by: &[],
};

fn check_ctr006(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let Some(spec) = inv.setting.cdi_spec_uvm.as_ref().filter(|f| !f.value) else {
        return vec![];
    };
    let cuda_failed = inv.errors_of(&[
        ErrorKind::CudaUnavailable,
        ErrorKind::NoDevice,
        ErrorKind::InitFailed,
    ]);
    let mut f = CTR006
        .finding(
            "The CDI spec shown lists NVIDIA device nodes for containers but not /dev/nvidia-uvm: containers get nvidia-smi working and no CUDA (unified memory needs that node). The spec was most likely generated before the nvidia-uvm nodes existed on the host."
                .to_string(),
        )
        .fact("CDI spec gives /dev/nvidia-uvm", spec)
        .observed(cuda_failed.clone());
    if cuda_failed.is_empty() {
        f.severity = Severity::Warning;
    }
    vec![f.fix_command(
        "sudo nvidia-modprobe -u -c=0 && sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml",
        Some("creates the nvidia-uvm nodes, then writes the spec again; `grep nvidia-uvm /etc/cdi/nvidia.yaml` should list them".into()),
    )]
}

pub static CTR007: Rule = Rule {
    code: "CTR007",
    name: "amd-gpu-container-device-nodes",
    category: Category::Container,
    severity: Severity::Warning,
    summary: "A container on a machine with an AMD GPU, and the GPU work fails: a ROCm container gets the GPU only through its device nodes (/dev/kfd and /dev/dri), which docker gives only when asked.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "A report from a container (docker, podman, Kubernetes) whose GPU is AMD (a Radeon or gfx target named, an AMD PCI device, a HIP/ROCm error) and where something failed.",
        why_it_breaks: "ROCm programs talk to the GPU through /dev/kfd (the compute interface) and the DRM render nodes under /dev/dri. A container has neither unless they are passed in (`--device=/dev/kfd --device=/dev/dri`, or `--privileged`), and its user needs the host's video and render groups. docker's `--gpus` and the NVIDIA runtime do nothing for an AMD GPU, and an image with a CUDA build of the framework cannot use it either.",
        how_to_fix: "Start the container with `--device=/dev/kfd --device=/dev/dri --group-add video --group-add render` (Compose: `devices:` and `group_add:`), from an image with the ROCm build of the framework.",
        sources: &[
            "https://github.com/ROCm/ROCm-docker/issues/30 (a ROCm container needs /dev/kfd and the DRM render node, or --privileged)",
            "https://github.com/av/harbor/issues/173 (an AMD machine's container without /dev/kfd and /dev/dri, and a CUDA image)",
        ],
    },
    check: check_ctr007,
    superseded_by: &[],
};

fn check_ctr007(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    if !facts::in_container(inv) {
        return vec![];
    }
    let Some(amd) = facts::amd_gpu_failing(inv) else {
        return vec![];
    };
    let mut f = CTR007.finding(
        "This runs in a container on a machine with an AMD GPU, and the GPU work fails: a container sees an AMD GPU only through /dev/kfd and /dev/dri passed into it (`--device`), not through docker's --gpus or the NVIDIA runtime, and it needs the ROCm build of the framework."
            .to_string(),
    );
    if let Some(r) = &inv.container.runtime {
        f = f.fact("container", r);
    }
    if let Some(p) = amd.pci {
        f = f.evidence(
            "AMD GPU",
            p.name.as_deref().unwrap_or(&p.device_id),
            &p.source,
        );
    }
    vec![f.observed(amd.hip).fix_command(
        "docker run --device=/dev/kfd --device=/dev/dri --group-add video --group-add render IMAGE",
        Some("with an image that holds the framework's ROCm build (for torch, a rocm/pytorch image or a wheel from the /whl/rocmX.Y index)".into()),
    )]
}
