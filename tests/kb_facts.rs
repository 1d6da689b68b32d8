//! Spot facts of the knowledge base, each checked against the table row (and
//! through it the published source) it comes from. Source keys as in
//! research/cuda/rules.md: [RN] CUDA release notes Table 3 / Table 2,
//! [MVC] minor-version-compatibility guide, [SUP615]/[SUP620] data-center
//! driver support tables, [CCP] developer.nvidia.com/cuda-gpus,
//! [CPG] CUDA C++ Programming Guide "Binary Compatibility".

use gpucompat::inventory::OsKind;
use gpucompat::kb::{GpuLookup, Kb, KernelMatch, Semantic};
use gpucompat::version::{parse_arch_list, ComputeCapability, CudaVersion, DriverVersion};

fn kb() -> &'static Kb {
    Kb::embedded()
}
fn drv(s: &str) -> DriverVersion {
    s.parse().unwrap()
}
fn cuda(s: &str) -> CudaVersion {
    s.parse().unwrap()
}
fn cc(s: &str) -> ComputeCapability {
    s.parse().unwrap()
}
fn max_cuda(d: &str, os: OsKind) -> Option<(String, bool)> {
    kb().max_cuda_for_driver(&drv(d), os)
        .map(|m| (m.max_cuda.to_string(), m.at_least))
}
fn min_driver(c: &str, os: OsKind, s: Semantic) -> Option<String> {
    kb().min_driver_for_cuda(&cuda(c), os, s)
        .map(|m| m.driver.to_string())
}
fn kernel(list: &str, c: &str) -> &'static str {
    kb().kernels_for_gpu(&parse_arch_list(list).unwrap(), cc(c))
        .kind()
}
fn torch_kernel(build: &str, c: &str) -> Option<KernelMatch> {
    let b = kb().torch_build(build);
    b.arch_list().map(|l| kb().kernels_for_gpu(l, cc(c)))
}

// ---- driver -> max CUDA -------------------------------------------------

#[test]
fn driver_535_104_05_runs_cuda_12_2() {
    // [RN] cuda_toolkits 12.2.2: linux_driver 535.104.05 (12.3.0 needs 545.23.06)
    assert_eq!(
        max_cuda("535.104.05", OsKind::Linux),
        Some(("12.2".into(), false))
    );
}

#[test]
fn driver_550_54_14_runs_cuda_12_4() {
    // [RN] cuda_toolkits 12.4.0: linux_driver 550.54.14
    assert_eq!(
        max_cuda("550.54.14", OsKind::Linux),
        Some(("12.4".into(), false))
    );
}

#[test]
fn driver_525_60_13_runs_cuda_12_0() {
    // [RN] cuda_toolkits 12.0.0: linux_driver 525.60.13
    assert_eq!(
        max_cuda("525.60.13", OsKind::Linux),
        Some(("12.0".into(), false))
    );
}

#[test]
fn driver_470_82_01_runs_cuda_11_4() {
    // [RN] cuda_toolkits 11.4.3: linux_driver 470.82.01; 11.5.0 needs 495.29.05
    assert_eq!(
        max_cuda("470.82.01", OsKind::Linux),
        Some(("11.4".into(), false))
    );
}

#[test]
fn driver_580_65_06_runs_cuda_13_0() {
    // [RN] cuda_toolkits 13.0.0: linux_driver 580.65.06
    assert_eq!(
        max_cuda("580.65.06", OsKind::Linux),
        Some(("13.0".into(), false))
    );
}

#[test]
fn driver_older_than_cuda_8_0_is_unknown() {
    // [RN] cuda_toolkits 9.0.76: linux_driver 384.81; 8.0.44: 367.48 is the oldest row
    assert_eq!(
        max_cuda("384.81", OsKind::Linux),
        Some(("9.0".into(), false))
    );
    assert_eq!(
        max_cuda("384.80", OsKind::Linux),
        Some(("8.0".into(), false))
    );
    assert_eq!(max_cuda("367.47", OsKind::Linux), None);
}

#[test]
fn windows_552_22_runs_cuda_12_4() {
    // [RN] cuda_toolkits 12.4.1: windows_driver 551.78; 12.5.0 needs 555.85
    assert_eq!(
        max_cuda("552.22", OsKind::Windows),
        Some(("12.4".into(), false))
    );
}

#[test]
fn driver_past_the_table_is_a_lower_bound() {
    // [RN134] cuda_toolkits 13.4.1/13.4.2: R615; 13.5 has no driver in the table
    assert_eq!(
        max_cuda("620.10.01", OsKind::Linux),
        Some(("13.4".into(), true))
    );
    // an R615 driver is on the table's newest known branch: exact
    assert_eq!(
        max_cuda("615.20.01", OsKind::Linux),
        Some(("13.4".into(), false))
    );
}

#[test]
fn driver_between_known_rows_is_exact() {
    // [RN] cuda_toolkits 13.2.2: 595.71.05; 13.3.0: 610.43.02 (known, not met by 600)
    assert_eq!(
        max_cuda("600.10.01", OsKind::Linux),
        Some(("13.2".into(), false))
    );
    // 13.3.1: 610.43.02; 13.4.1 needs R615 (known): a 612 driver is exactly 13.3
    assert_eq!(
        max_cuda("612.10.01", OsKind::Linux),
        Some(("13.3".into(), false))
    );
}

#[test]
fn windows_r580_is_at_least_12_9() {
    // [RN] cuda_toolkits 12.9.1: windows_driver 576.57; 13.0-13.3 give no Windows driver (N/A)
    assert_eq!(
        max_cuda("580.88", OsKind::Windows),
        Some(("12.9".into(), true))
    );
    // same branch as the 12.9.1 driver: exact
    assert_eq!(
        max_cuda("576.80", OsKind::Windows),
        Some(("12.9".into(), false))
    );
}

// ---- CUDA -> minimum driver --------------------------------------------

#[test]
fn cuda_12_4_0_minimum_drivers() {
    // [RN] cuda_toolkits 12.4.0: 550.54.14 / 551.61; [RN]/[MVC] minor_compat 12.0-12.9: 525.60.13 / 528.33
    assert_eq!(
        min_driver("12.4.0", OsKind::Linux, Semantic::Toolkit).as_deref(),
        Some("550.54.14")
    );
    assert_eq!(
        min_driver("12.4.0", OsKind::Linux, Semantic::MinorCompat).as_deref(),
        Some("525.60.13")
    );
    assert_eq!(
        min_driver("12.4", OsKind::Windows, Semantic::Toolkit).as_deref(),
        Some("551.61")
    );
    assert_eq!(
        min_driver("12.4", OsKind::Windows, Semantic::MinorCompat).as_deref(),
        Some("528.33")
    );
}

#[test]
fn cuda_12_4_1_is_its_own_release() {
    // [RN] cuda_toolkits 12.4.1: 550.54.15 / 551.78
    assert_eq!(
        min_driver("12.4.1", OsKind::Linux, Semantic::Toolkit).as_deref(),
        Some("550.54.15")
    );
    // an nvcc build number (V12.4.131) is not a release: the first 12.4 release's driver
    assert_eq!(
        min_driver("V12.4.131", OsKind::Linux, Semantic::Toolkit).as_deref(),
        Some("550.54.14")
    );
}

#[test]
fn cuda_11_x_minor_compat_floor() {
    // [RN] Table 2 (older exact form) minor_compat 11.1-11.8: 450.80.02 / 452.39
    assert_eq!(
        min_driver("11.8", OsKind::Linux, Semantic::MinorCompat).as_deref(),
        Some("450.80.02")
    );
    assert_eq!(
        min_driver("11.1", OsKind::Windows, Semantic::MinorCompat).as_deref(),
        Some("452.39")
    );
    // [RN] Table 2 row 'CUDA 11.0 (11.0.3)': 450.36.06 / 451.22
    assert_eq!(
        min_driver("11.0", OsKind::Linux, Semantic::MinorCompat).as_deref(),
        Some("450.36.06")
    );
}

#[test]
fn cuda_11_8_toolkit_driver() {
    // [RN] cuda_toolkits 11.8.0: 520.61.05 / 520.06 (Table 3 value kept; installer says 522.06)
    assert_eq!(
        min_driver("cu118", OsKind::Linux, Semantic::Toolkit).as_deref(),
        Some("520.61.05")
    );
    assert_eq!(
        min_driver("cu118", OsKind::Windows, Semantic::Toolkit).as_deref(),
        Some("520.06")
    );
}

#[test]
fn no_minor_compat_before_cuda_11() {
    // [MVC] "10.2 >= 440.33": before CUDA 11 the minimum is the packaged driver
    assert_eq!(
        min_driver("10.2", OsKind::Linux, Semantic::MinorCompat).as_deref(),
        Some("440.33")
    );
    assert_eq!(
        min_driver("10.2", OsKind::Linux, Semantic::Toolkit).as_deref(),
        Some("440.33")
    );
}

#[test]
fn cuda_13_minor_compat_is_branch_580() {
    // [RN] current Table 2 row '13.x >= 580'
    let m = kb()
        .min_driver_for_cuda(&cuda("13.2"), OsKind::Linux, Semantic::MinorCompat)
        .unwrap();
    assert!(m.driver.is_branch_only());
    assert_eq!(m.driver.branch(), 580);
    assert_eq!(m.kb.table, "minor_compat");
}

#[test]
fn cuda_13_4_needs_r615_and_13_5_is_unknown() {
    // [RN134] cuda_toolkits 13.4.1: R615 (13.4.0 developer preview has no driver in the table)
    let m = kb()
        .min_driver_for_cuda(&cuda("13.4"), OsKind::Linux, Semantic::Toolkit)
        .unwrap();
    assert_eq!(m.driver.branch_name(), "R615");
    assert_eq!(m.kb.row, "13.4.1");
    // the preview itself stays unknown
    assert!(kb()
        .min_driver_for_cuda(&cuda("13.4.0"), OsKind::Linux, Semantic::Toolkit)
        .is_none());
    // cuda_toolkits 13.5: driver section not read, so unknown
    assert!(kb()
        .min_driver_for_cuda(&cuda("13.5"), OsKind::Linux, Semantic::Toolkit)
        .is_none());
}

#[test]
fn cuda_spellings_name_the_same_version() {
    // [DRVAPI] 1000*major + 10*minor: 12040 is 12.4
    for s in ["12.4", "12040", "cu124", "V12.4.131", "12.4.127", "12.4.1"] {
        assert_eq!(cuda(s).major_minor(), CudaVersion::new(12, 4), "{s}");
    }
    assert_eq!(cuda("13000").major_minor(), CudaVersion::new(13, 0));
}

#[test]
fn nvcc_targets_follow_the_removals() {
    // nvcc_targets 12.0: Kepler sm_35/sm_37 removed, min sm_50
    let r = kb().nvcc_targets(&cuda("12.0")).unwrap();
    assert_eq!(r.min_sm, Some(cc("sm_50")));
    assert!(r.removed.as_ref().unwrap().contains(&"sm_37".to_string()));
    // nvcc_targets 13.0: Maxwell, Pascal, Volta removed, min sm_75
    let r = kb().nvcc_targets(&cuda("13.0")).unwrap();
    assert_eq!(r.min_sm, Some(cc("sm_75")));
    assert!(r.removed.as_ref().unwrap().contains(&"sm_70".to_string()));
    // nvcc_targets 12.8: sm_120 added (Blackwell RTX)
    let r = kb().nvcc_targets(&cuda("12.8")).unwrap();
    assert!(r.added.as_ref().unwrap().contains(&"sm_120".to_string()));
}

// ---- GPUs ----------------------------------------------------------------

#[test]
fn rtx_5090_is_cc_12_0_blackwell() {
    // [CCP] gpus 'NVIDIA GeForce RTX 5090': 12.0, Blackwell, 32 GiB, 0x2b85
    let GpuLookup::Found(g) = kb().gpu("GeForce RTX 5090") else {
        panic!("not found")
    };
    assert_eq!(g.name, "NVIDIA GeForce RTX 5090");
    assert_eq!(g.compute_capability, Some(cc("12.0")));
    assert_eq!(g.architecture, "Blackwell");
    // architectures 'Blackwell (RTX)' 12.0: first toolkit 12.8, R570
    let a = kb().architecture(cc("12.0")).unwrap();
    assert_eq!(a.name, "Blackwell (RTX)");
    assert_eq!(a.first_toolkit, Some(cuda("12.8")));
    assert_eq!(a.min_driver_branch.as_ref().unwrap().branch(), 570);
}

#[test]
fn rtx_5090_never_matches_the_d_or_laptop_part() {
    // gpus rows 'NVIDIA GeForce RTX 5090 D' and '... RTX 5090 Laptop GPU' are separate parts
    for q in ["RTX 5090", "rtx5090 ", "NVIDIA GeForce RTX 5090"] {
        match kb().gpu(q) {
            GpuLookup::Found(g) => assert_eq!(g.name, "NVIDIA GeForce RTX 5090", "{q}"),
            other => panic!("{q}: {other:?}"),
        }
    }
    let GpuLookup::Found(d) = kb().gpu("RTX 5090 D") else {
        panic!()
    };
    assert_eq!(d.name, "NVIDIA GeForce RTX 5090 D");
    // not itemised on the CC page: its CC is derived from the chip family, and says so
    assert_eq!(d.compute_capability, Some(cc("12.0")));
    assert_eq!(
        d.cc_derived,
        Some(gpucompat::kb::tables::CcDerivation::Chip)
    );
    let GpuLookup::Found(l) = kb().gpu("GeForce RTX 5090 Laptop GPU") else {
        panic!()
    };
    assert_eq!(l.name, "NVIDIA GeForce RTX 5090 Laptop GPU");
}

#[test]
fn rtx_5090_alone_does_not_pick_among_variants() {
    // rows 5090, 5090 D, 5090 D v2, 5090 Laptop GPU all contain "5090"
    let GpuLookup::Ambiguous(rows) = kb().gpu("5090") else {
        panic!()
    };
    assert_eq!(rows.len(), 4);
}

#[test]
fn rtx_4090_is_ada_8_9() {
    // [CCP] gpus 'NVIDIA GeForce RTX 4090': 8.9, Ada, 24 GiB; architectures Ada: first toolkit 11.8
    let GpuLookup::Found(g) = kb().gpu("RTX 4090") else {
        panic!()
    };
    assert_eq!(g.compute_capability, Some(cc("8.9")));
    assert_eq!(g.vram_gib, Some(24.0));
    assert_eq!(
        kb().architecture(cc("8.9")).unwrap().first_toolkit,
        Some(cuda("11.8"))
    );
}

#[test]
fn a100_is_ambiguous() {
    // gpus: six A100 rows (SXM4 40/80GB, PCIE 40GB, 80GB PCIe, PG509-200, SXM-64GB), all CC 8.0
    let GpuLookup::Ambiguous(rows) = kb().gpu("A100") else {
        panic!()
    };
    assert_eq!(rows.len(), 6);
    assert!(rows.iter().all(|r| r.compute_capability == Some(cc("8.0"))));
}

#[test]
fn tesla_t4_by_name_and_pci_id() {
    // gpus 'Tesla T4': 7.5 Turing, 16 GiB, PCI 0x1eb8 (open-gpu-kernel-modules README)
    let GpuLookup::Found(g) = kb().gpu("T4") else {
        panic!()
    };
    assert_eq!(g.name, "Tesla T4");
    assert_eq!(g.compute_capability, Some(cc("7.5")));
    assert_eq!(kb().gpu_by_pci_id("0x1EB8").unwrap().name, "Tesla T4");
}

#[test]
fn unknown_gpu_names_its_neighbours() {
    let GpuLookup::NotFound { nearest } = kb().gpu("RTX 5095") else {
        panic!()
    };
    assert_eq!(nearest.first().copied(), Some("NVIDIA GeForce RTX 5090"));
    let GpuLookup::NotFound { nearest } = kb().gpu("H10") else {
        panic!()
    };
    assert_eq!(nearest.first().copied(), Some("NVIDIA H100"));
}

#[test]
fn last_driver_branches() {
    // [MAT] architectures Kepler 3.5/3.7: last branch R470; Maxwell: R580; Turing: still supported
    assert_eq!(
        kb().architecture(cc("3.7"))
            .unwrap()
            .last_driver_branch
            .as_ref()
            .unwrap()
            .branch(),
        470
    );
    assert_eq!(
        kb().architecture(cc("5.2"))
            .unwrap()
            .last_driver_branch
            .as_ref()
            .unwrap()
            .branch(),
        580
    );
    assert!(kb()
        .architecture(cc("7.5"))
        .unwrap()
        .last_driver_branch
        .is_none());
}

#[test]
fn driver_branch_kinds() {
    // [SUP615] driver_branches R535: LTSB, EOL 2026-06; [SUP620] R620: LTSB, EOL 2029-09
    let r = kb().driver_branch(535).unwrap();
    assert_eq!(
        serde_json::to_value(r.kind).unwrap(),
        serde_json::json!("LTSB")
    );
    assert_eq!(r.eol.as_deref(), Some("2026-06"));
    assert_eq!(
        kb().driver_branch(620).unwrap().eol.as_deref(),
        Some("2029-09")
    );
    assert!(kb().driver_branch(552).is_none());
}

#[test]
fn branches_before_the_2019_lifecycle_have_no_kind() {
    // driver_branches R384..R415: no LTSB/PB/NFB class in the sources; max CUDA major from
    // the Table 3 minimums (CUDA 9.0 >= 384.81, CUDA 10.0 >= 410.48); R390 is Fermi's last.
    for (branch, major) in [(384, 9), (387, 9), (390, 9), (396, 9), (410, 10), (415, 10)] {
        let r = kb().driver_branch(branch).unwrap();
        assert!(r.kind.is_none(), "R{branch}");
        assert_eq!(r.max_cuda_major, Some(major), "R{branch}");
    }
    let r390 = kb().driver_branch(390).unwrap();
    assert_eq!(r390.last_for.as_deref(), Some(&["Fermi".to_string()][..]));
    // Near miss: R418 is the first branch with a kind.
    assert!(kb().driver_branch(418).unwrap().kind.is_some());
}

// ---- torch ---------------------------------------------------------------

#[test]
fn torch_2_6_has_no_sm_120_kernels() {
    // torch_arch 2.6 cu124 (wheel inspected): sm_50..sm_90, no PTX
    assert_eq!(
        torch_kernel("2.6.0+cu124", "12.0").map(|k| k.kind()),
        Some("none")
    );
    // torch_arch 2.6 cu126: a secondary copy of the build scripts (sm_50..sm_90), so
    // "none" too, and the row says where the list came from.
    assert_eq!(
        torch_kernel("2.6.0+cu126", "12.0").map(|k| k.kind()),
        Some("none")
    );
    assert_eq!(
        kb().torch_arch("2.6.0", "cu126").unwrap().arch_provenance(),
        Some("a secondary copy of the build scripts")
    );
}

#[test]
fn torch_2_8_cu128_has_sm_120() {
    // torch_arch 2.8 cu128 (wheel inspected): ... sm_100 sm_120
    let k = torch_kernel("2.8.0+cu128", "12.0").unwrap();
    assert_eq!(k.kind(), "sass");
    if let KernelMatch::Sass { target, .. } = k {
        assert_eq!(target.to_string(), "sm_120");
    }
    // and dropped Maxwell/Pascal: nothing for a GTX 1080 (6.1)
    assert_eq!(
        torch_kernel("2.8.0+cu128", "6.1").map(|k| k.kind()),
        Some("none")
    );
}

#[test]
fn torch_2_7_cu128_has_sm_120_and_no_volta() {
    // torch_arch 2.7 cu128 (get_arch_list() of 2.7.1+cu128, Linux):
    // sm_75 sm_80 sm_86 sm_90 sm_100 sm_120 compute_120
    let k = torch_kernel("2.7.1+cu128", "12.0").unwrap();
    assert_eq!(k.kind(), "sass");
    if let KernelMatch::Sass { target, .. } = k {
        assert_eq!(target.to_string(), "sm_120");
    }
    // no sm_70: nothing for a V100
    assert_eq!(
        torch_kernel("2.7.1+cu128", "7.0").map(|k| k.kind()),
        Some("none")
    );
}

#[test]
fn torch_2_7_cu126_has_no_blackwell() {
    // torch_arch 2.7 cu126: "no sm_100/sm_120: RTX 50xx needs cu128"
    assert_eq!(
        torch_kernel("2.7.1", "12.0").map(|k| k.kind()),
        Some("none")
    );
    assert_eq!(kb().torch_build("2.7.1").variant.as_deref(), Some("cu126"));
}

#[test]
fn torch_release_facts() {
    // torch_releases 2.5.1: PyPI default cu124 (nvidia-cuda-runtime-cu12==12.4.127)
    let b = kb().torch_build("2.5.1");
    assert_eq!(b.variant.as_deref(), Some("cu124"));
    assert!(b.variant_from_default);
    assert_eq!(b.cuda, Some(cuda("12.4")));
    // torch_releases 2.6.0: torchvision 0.21.0, variants cu118 cu124 cu126
    let r = kb().torch_release("2.6.0").unwrap();
    assert_eq!(r.torchvision.as_deref(), Some("0.21.0"));
    assert_eq!(
        r.cuda_variants.as_deref().unwrap(),
        ["cu118", "cu124", "cu126"]
    );
}

// ---- arch rules ------------------------------------------------------------

#[test]
fn sm_86_runs_on_8_9_not_9_0() {
    // [CPG] / Ada compatibility guide: "a cubin generated for compute capability 8.6
    // is supported to run on a GPU with compute capability 8.9"; 8.x not on 9.0
    assert_eq!(kernel("sm_86", "8.9"), "sass");
    assert_eq!(kernel("sm_86", "9.0"), "none");
    assert_eq!(kernel("sm_86", "8.0"), "none");
}

#[test]
fn ptx_jits_forward_only() {
    // [CPG] PTX Compatibility: PTX for compute_X.Y compiles for any CC >= X.Y
    assert_eq!(kernel("sm_80 compute_90", "12.0"), "ptx");
    assert_eq!(kernel("compute_90", "8.9"), "none");
    assert_eq!(kernel("8.0;8.6;9.0+PTX", "10.0"), "ptx");
}

#[test]
fn arch_specific_and_family_targets() {
    // rules.md (b)6: sm_90a has no forward compatibility; sm_100f runs within its family
    assert_eq!(kernel("sm_90a", "9.0"), "sass");
    assert_eq!(kernel("sm_90a", "10.0"), "none");
    assert_eq!(kernel("sm_100f", "10.3"), "sass");
    assert_eq!(kernel("sm_100f", "12.0"), "none");
}

#[test]
fn tegra_gpus_run_only_their_own_sass() {
    // [CPG] "binary compatibility between desktop and Tegra is not supported";
    // architectures 'Ampere (Orin)' 8.7 integrated
    assert_eq!(kernel("sm_80 sm_86", "8.7"), "none");
    assert_eq!(kernel("sm_87", "8.7"), "sass");
    // architectures Maxwell: integrated_ccs 5.3 (Tegra X1): desktop sm_50 does not run there
    assert!(kb().is_integrated(cc("5.3")));
    assert!(!kb().is_integrated(cc("5.2")));
    assert_eq!(kernel("sm_50", "5.3"), "none");
    assert_eq!(kernel("sm_50", "5.2"), "sass");
    // architectures Pascal: integrated_ccs 6.2 (Jetson TX2)
    assert_eq!(kernel("sm_60", "6.2"), "none");
    assert_eq!(kernel("sm_60", "6.1"), "sass");
}

#[test]
fn a_bare_torch_version_is_the_pypi_wheel_of_its_platform() {
    // torch/version.py read from each PyPI wheel (torch_releases platform_defaults).
    let b = |v: &str, p: &str| kb().torch_build_on(v, p).variant;
    assert_eq!(b("2.5.1", "linux-x86_64").as_deref(), Some("cu124"));
    assert_eq!(b("2.5.1", "windows-x86_64").as_deref(), Some("cpu"));
    assert_eq!(b("2.5.1", "linux-aarch64").as_deref(), Some("cpu"));
    assert_eq!(b("2.11.0", "linux-aarch64").as_deref(), Some("cu130"));
    assert_eq!(b("2.15.0", "macos-arm64").as_deref(), Some("cpu"));
    // 1.x defaults the install page never stated, read from the wheels.
    assert_eq!(b("1.0.0", "linux-x86_64").as_deref(), Some("cu90"));
    assert_eq!(b("1.11.0", "linux-x86_64").as_deref(), Some("cu102"));
    // No Windows wheel on PyPI before 1.7.0: unknown, not guessed.
    assert_eq!(b("1.6.0", "windows-x86_64"), None);
    // A local tag is what it says on every platform.
    assert_eq!(b("2.5.1+cu121", "windows-x86_64").as_deref(), Some("cu121"));
}

#[test]
fn the_toolkits_that_target_a_gpu() {
    // nvcc_targets: CMake's and clang's tables.
    let first = |c: &str| kb().nvcc_first_for(&cc(c)).map(|r| r.cuda.to_string());
    let last = |c: &str| kb().nvcc_last_for(&cc(c)).map(|r| r.cuda.to_string());
    assert_eq!(first("8.9").as_deref(), Some("11.8"));
    assert_eq!(first("6.1").as_deref(), Some("8.0"));
    assert_eq!(first("12.0").as_deref(), Some("12.8"));
    assert_eq!(last("6.1").as_deref(), Some("12.9"));
    assert_eq!(last("3.0").as_deref(), Some("10.2"));
    // Beyond every known nvcc's newest target: unknown, not the newest row.
    assert_eq!(first("15.0"), None);
}
