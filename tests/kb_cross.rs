//! Cross-table validation: facts in one table agree with the tables they
//! depend on (a torch variant's CUDA exists and its nvcc can emit the arch
//! list; a library's minimum driver is at least its CUDA's; derived rows
//! stay inside their architecture).

use gpucompat::inventory::OsKind;
use gpucompat::kb::{cmp_versions, Kb, Semantic};
use gpucompat::version::{ComputeCapability, CudaVersion, DriverVersion, TargetKind};

fn cuda_of_variant(v: &str) -> Option<CudaVersion> {
    v.strip_prefix("cu")?;
    v.parse().ok()
}

/// A branch-only minimum (`R450`) is met by any driver of that branch.
fn at_least(have: &DriverVersion, floor: &DriverVersion) -> bool {
    if !have.to_string().contains('.') || !floor.to_string().contains('.') {
        return have.branch() >= floor.branch();
    }
    have >= floor
}

fn toolkit_min(kb: &Kb, cuda: &CudaVersion, os: OsKind) -> Option<DriverVersion> {
    kb.min_driver_for_cuda(cuda, os, Semantic::Toolkit)
        .map(|m| m.driver)
}

#[test]
fn every_torch_variant_names_a_known_cuda() {
    let kb = Kb::embedded();
    let mut missing = Vec::new();
    for r in &kb.torch_releases.row {
        for v in r.cuda_variants.iter().flatten() {
            let Some(c) = cuda_of_variant(v) else {
                missing.push(format!(
                    "torch {} {v}: not a CUDA variant spelling",
                    r.version
                ));
                continue;
            };
            if kb.toolkit(&c).is_none() {
                missing.push(format!(
                    "torch {} {v}: CUDA {c} has no cuda_toolkits row",
                    r.version
                ));
            }
        }
        if let (Some(d), Some(vs)) = (&r.default_variant, &r.cuda_variants) {
            assert!(
                d == "cpu" || vs.contains(d),
                "torch {}: default {d} not among {vs:?}",
                r.version
            );
        }
        // Another platform's PyPI wheel: CPU, or a CUDA variant of this release.
        for (p, d) in r.platform_defaults.iter().flatten() {
            assert!(
                ["linux-aarch64", "windows-x86_64", "macos-arm64"].contains(&p.as_str()),
                "torch {}: unknown platform {p}",
                r.version
            );
            let known = d == "cpu"
                || r.default_variant.as_ref() == Some(d)
                || r.cuda_variants.iter().flatten().any(|v| v == d);
            assert!(known, "torch {} on {p}: {d} is no variant of it", r.version);
        }
    }
    for r in &kb.torch_arch.row {
        if let Some(c) = cuda_of_variant(&r.variant) {
            if kb.toolkit(&c).is_none() {
                missing.push(format!(
                    "torch_arch {}..{} {}: no cuda_toolkits row",
                    r.torch_min, r.torch_max, r.variant
                ));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn every_arch_list_lies_within_its_cudas_nvcc_targets() {
    let kb = Kb::embedded();
    let mut bad = Vec::new();
    for r in &kb.torch_arch.row {
        let (Some(c), Some(list)) = (cuda_of_variant(&r.variant), &r.arch_list) else {
            continue;
        };
        let Some(n) = kb.nvcc_targets(&c) else {
            bad.push(format!(
                "{} {}: no nvcc_targets row for CUDA {c}",
                r.torch_min, r.variant
            ));
            continue;
        };
        for t in list {
            let ok = match &n.targets {
                Some(ts) => ts.contains(&t.cc),
                None => n.min_sm.is_none_or(|m| t.cc >= m) && n.max_sm.is_none_or(|m| t.cc <= m),
            };
            // PTX of a CC nvcc can target is emitted by the same compiler.
            let ptx_in_range = t.kind == TargetKind::Ptx && n.max_sm.is_some_and(|m| t.cc <= m);
            if !(ok || ptx_in_range) {
                bad.push(format!(
                    "torch {}..{} {}: {t} is not an nvcc {c} target",
                    r.torch_min, r.torch_max, r.variant
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn library_minimum_drivers_are_at_least_their_cudas() {
    let kb = Kb::embedded();
    let mut bad = Vec::new();
    // cuDNN states the minor-version-compatibility floor of its CUDA major (the toolkit
    // driver before CUDA 11). A floor the tables mark as CONFLICT may equal its named alternative.
    for r in &kb.cudnn.row {
        let Some(cuda) = r.cuda_min else { continue };
        for (os, want) in [
            (OsKind::Linux, &r.min_linux_driver),
            (OsKind::Windows, &r.min_windows_driver),
        ] {
            let Some(want) = want else { continue };
            let floor = kb
                .min_driver_for_cuda(&cuda, os, Semantic::MinorCompat)
                .map(|m| m.driver)
                .or_else(|| toolkit_min(kb, &cuda, os));
            let Some(floor) = floor else { continue };
            let conflict_alt = kb
                .minor_compat(&cuda)
                .and_then(|m| m.note.as_deref())
                .is_some_and(|n| n.contains("CONFLICT") && n.contains(&want.to_string()));
            if !at_least(want, &floor) && !conflict_alt {
                bad.push(format!(
                    "cudnn {}..{} (CUDA {cuda}, {os:?}): driver {want} below CUDA's {floor}",
                    r.version_min, r.version_max
                ));
            }
        }
    }
    for r in &kb.jax.row {
        let Some(want) = &r.min_linux_driver else {
            continue;
        };
        let cuda = CudaVersion {
            major: r.cuda_major,
            minor: 0,
            patch: None,
        };
        if let Some(floor) = kb
            .min_driver_for_cuda(&cuda, OsKind::Linux, Semantic::MinorCompat)
            .map(|m| m.driver)
        {
            if !at_least(want, &floor) {
                bad.push(format!(
                    "jax {} {}: driver {want} below CUDA {}'s floor {floor}",
                    r.package, r.version, r.cuda_major
                ));
            }
        }
    }
    for a in &kb.architectures.row {
        let (Some(first), Some(d)) = (a.first_toolkit, &a.min_linux_driver) else {
            continue;
        };
        if let Some(t) = toolkit_min(kb, &first, OsKind::Linux) {
            if d < &t {
                bad.push(format!(
                    "architecture {}: driver {d} below CUDA {first}'s {t}",
                    a.name
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn toolkit_drivers_never_decrease_with_the_cuda_version() {
    let kb = Kb::embedded();
    let mut last: Option<(&CudaVersion, &DriverVersion)> = None;
    for r in &kb.cuda_toolkits.row {
        let Some(d) = &r.linux_driver else { continue };
        if let Some((pc, pd)) = last {
            assert!(
                d >= pd,
                "CUDA {} needs {d}, older CUDA {pc} needed {pd}",
                r.version
            );
        }
        last = Some((&r.version, d));
    }
}

#[test]
fn driver_branch_cuda_majors_fit_the_branch() {
    let kb = Kb::embedded();
    for b in &kb.driver_branches.row {
        let Some(major) = b.max_cuda_major else {
            continue;
        };
        let cuda = CudaVersion {
            major,
            minor: 0,
            patch: None,
        };
        if let Some(min) = toolkit_min(kb, &cuda, OsKind::Linux) {
            assert!(
                min.branch() <= b.branch,
                "R{} claims CUDA {major}, whose first toolkit needs {min}",
                b.branch
            );
        }
    }
}

#[test]
fn images_and_extensions_point_at_known_rows() {
    let kb = Kb::embedded();
    for i in &kb.cuda_images.row {
        assert!(
            kb.toolkit(&i.cuda).is_some(),
            "image CUDA {} has no cuda_toolkits row",
            i.cuda
        );
    }
    // Every torch an extension pins is a torch release the tables know.
    let known: Vec<&str> = kb
        .torch_releases
        .row
        .iter()
        .map(|r| r.version.as_str())
        .collect();
    for e in &kb.extensions.row {
        for t in e.torch.iter().flatten() {
            assert!(
                known.iter().any(|k| cmp_versions(k, t).is_eq()),
                "{} {} pins torch {t}, not in torch_releases",
                e.package,
                e.version_min
            );
        }
        if let (Some(a), Some(b)) = (e.min_cc, e.max_cc) {
            assert!(a <= b, "{} {}: CC range {a}..{b}", e.package, e.version_min);
        }
        for cc in [e.min_cc, e.max_cc].into_iter().flatten() {
            assert!(
                kb.architecture(cc).is_some(),
                "{}: CC {cc} is no architecture's",
                e.package
            );
        }
    }
}

#[test]
fn gpu_ccs_belong_to_their_architecture() {
    let kb = Kb::embedded();
    for g in &kb.gpus.row {
        let Some(cc) = g.compute_capability else {
            continue;
        };
        let a = kb
            .architecture(cc)
            .unwrap_or_else(|| panic!("{}: CC {cc} in no architectures row", g.name));
        assert!(
            a.name.starts_with(&g.architecture)
                || g.architecture
                    .starts_with(a.name.split(' ').next().unwrap()),
            "{}: CC {cc} is {}, row says {}",
            g.name,
            a.name,
            g.architecture
        );
        let _: ComputeCapability = cc;
    }
}

/// A CUDA build a library row names is a toolkit release the tables know:
/// exactly, when the build names its update (`13.3.1`), else by major.minor.
fn known_toolkit(kb: &Kb, c: &CudaVersion) -> bool {
    match c.patch {
        Some(_) => kb.cuda_toolkits.row.iter().any(|r| r.version == *c),
        None => kb.toolkit(c).is_some(),
    }
}

#[test]
fn library_cuda_builds_are_known_toolkits() {
    let kb = Kb::embedded();
    let mut bad = Vec::new();
    for r in &kb.tensorrt.row {
        for b in r.cuda_builds.iter().flatten() {
            if !known_toolkit(kb, b) {
                bad.push(format!(
                    "tensorrt {}..{}: CUDA build {b} has no cuda_toolkits row",
                    r.version_min, r.version_max
                ));
            }
            if let Some(majors) = &r.cuda_majors {
                if !majors.contains(&b.major) {
                    bad.push(format!(
                        "tensorrt {}..{}: build {b} outside cuda_majors {majors:?}",
                        r.version_min, r.version_max
                    ));
                }
            }
        }
    }
    for r in &kb.onnxruntime.row {
        if let Some(c) = &r.cuda_version {
            if !known_toolkit(kb, c) {
                bad.push(format!("onnxruntime {}: CUDA {c} unknown", r.version));
            }
            if r.cuda_major.is_some_and(|m| m != c.major) {
                bad.push(format!("onnxruntime {}: CUDA {c} vs major", r.version));
            }
        }
    }
    for r in &kb.tensorflow.row {
        if let Some(c) = &r.cuda_version {
            if !known_toolkit(kb, c) {
                bad.push(format!("tensorflow {}: CUDA {c} unknown", r.version));
            }
        }
    }
    for r in &kb.cudnn.row {
        for c in [r.cuda_min, r.cuda_max].into_iter().flatten() {
            if !known_toolkit(kb, &c) || c.major != r.cuda_major {
                bad.push(format!(
                    "cudnn {}..{} cuda{}: CUDA {c} unknown or of another major",
                    r.version_min, r.version_max, r.cuda_major
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn last_branches_agree_between_architectures_and_driver_branches() {
    let kb = Kb::embedded();
    let mut bad = Vec::new();
    // An architecture's last branch, when the branch has a row, names the architecture.
    for a in &kb.architectures.row {
        let Some(last) = &a.last_driver_branch else {
            continue;
        };
        if let Some(b) = kb.driver_branch(last.branch()) {
            if !b.last_for.iter().flatten().any(|n| n == &a.name) {
                bad.push(format!(
                    "{} ends at {last}, but R{} does not list it in last_for",
                    a.name, b.branch
                ));
            }
        }
    }
    // And every last_for name is an architecture that ends at that branch.
    for b in &kb.driver_branches.row {
        for n in b.last_for.iter().flatten() {
            let ends_here = kb.architectures.row.iter().any(|a| {
                &a.name == n
                    && a.last_driver_branch
                        .as_ref()
                        .is_some_and(|l| l.branch() == b.branch)
            });
            if !ends_here {
                bad.push(format!(
                    "R{} last_for {n}: no architecture of that name ends at R{}",
                    b.branch, b.branch
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
