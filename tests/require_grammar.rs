//! The requirement language case by case, each case taken from how
//! libnvidia-container's src/cli/dsl.c and src/cli/configure.c behave, and
//! how nvidia-container-toolkit's cuda_image.go builds the requirement list.

use std::collections::BTreeMap;

use gpucompat::plan::require::*;

fn host(driver: &str, cuda: &str) -> DriverView {
    DriverView {
        driver: Seen::value(driver),
        cuda: Seen::value(cuda),
    }
}

fn gpu(arch: &str, brand: &str) -> DeviceView {
    DeviceView {
        label: "GPU 0".into(),
        arch: Seen::value(arch),
        brand: Seen::value(brand),
    }
}

fn verdict(expr: &str, d: &DriverView, g: Option<&DeviceView>) -> &'static str {
    evaluate(expr, d, g).outcome.word()
}

const A100_535: (&str, &str) = ("535.104.05", "12.2");

fn a100() -> (DriverView, DeviceView) {
    (host(A100_535.0, A100_535.1), gpu("8.0", "Tesla"))
}

// ----- operators -------------------------------------------------------------

#[test]
fn every_operator_on_versions() {
    let (d, g) = a100();
    let cases = [
        ("cuda=12.2", "pass"),
        ("cuda=12.3", "fail"),
        ("cuda!=12.3", "pass"),
        ("cuda!=12.2", "fail"),
        ("cuda<12.3", "pass"),
        ("cuda<12.2", "fail"),
        ("cuda<=12.2", "pass"),
        ("cuda<=12.1", "fail"),
        ("cuda>12.1", "pass"),
        ("cuda>12.2", "fail"),
        ("cuda>=12.2", "pass"),
        ("cuda>=12.4", "fail"),
    ];
    for (expr, want) in cases {
        assert_eq!(verdict(expr, &d, Some(&g)), want, "{expr}");
    }
}

#[test]
fn a_lone_bang_is_not_equal_and_doubled_operators_are_invalid() {
    // strncmp(run, op, strlen(run)) against the table {=, !=, <, <=, >, >=}:
    // "!" is a prefix of "!=", "==" matches nothing.
    let (d, g) = a100();
    assert_eq!(verdict("cuda!12.3", &d, Some(&g)), "pass");
    assert_eq!(verdict("cuda!12.2", &d, Some(&g)), "fail");
    for bad in [
        "cuda==12.2",
        "cuda=<12.2",
        "cuda<>12.2",
        "cuda!==12.2",
        "cuda=>12.2",
    ] {
        assert_eq!(verdict(bad, &d, Some(&g)), "error", "{bad}");
    }
}

#[test]
fn operators_parse_as_dsl_c_splits_them() {
    let t = parse_term("driver<471").unwrap();
    assert_eq!((t.name, t.cmp, t.value), ("driver", Cmp::Lt, "471"));
    let t = parse_term("brand=tesla").unwrap();
    assert_eq!((t.name, t.cmp, t.value), ("brand", Cmp::Eq, "tesla"));
    // The value is everything after the operator run, verbatim.
    let t = parse_term("brand=tes=la").unwrap();
    assert_eq!(t.value, "tes=la");
    assert_eq!(parse_term(">=12.0"), Err(Malformed::NoRuleName));
    assert_eq!(parse_term("cuda"), Err(Malformed::NoOperator));
    assert_eq!(parse_term("cuda>="), Err(Malformed::EmptyValue));
}

// ----- OR and AND ------------------------------------------------------------

#[test]
fn space_is_or_comma_is_and() {
    let (d, g) = a100();
    assert_eq!(verdict("cuda>=12.4 cuda>=12.0", &d, Some(&g)), "pass");
    assert_eq!(verdict("cuda>=12.4 cuda>=12.3", &d, Some(&g)), "fail");
    assert_eq!(verdict("cuda>=12.0,driver>=535", &d, Some(&g)), "pass");
    assert_eq!(verdict("cuda>=12.0,driver>=550", &d, Some(&g)), "fail");
    let e = evaluate(
        "cuda>=12.4 brand=tesla,driver>=535,driver<536",
        &d,
        Some(&g),
    );
    assert_eq!(e.outcome, Outcome::Pass { clause: Some(1) });
}

#[test]
fn the_first_clause_that_holds_stops_the_walk() {
    // A later malformed clause is never parsed once an earlier one holds.
    let (d, g) = a100();
    assert_eq!(verdict("cuda>=12.0 bogus", &d, Some(&g)), "pass");
    // ... but it is reached, and is an error, when the earlier clause fails.
    assert_eq!(verdict("cuda>=13.0 bogus", &d, Some(&g)), "error");
}

#[test]
fn a_false_term_skips_the_rest_of_its_clause() {
    let (d, g) = a100();
    // "bogus" after a false term in the same clause is never evaluated.
    assert_eq!(verdict("cuda>=13.0,bogus cuda>=12.0", &d, Some(&g)), "pass");
    // After a true term it is, and the whole predicate is invalid.
    assert_eq!(
        verdict("cuda>=12.0,bogus cuda>=12.0", &d, Some(&g)),
        "error"
    );
}

#[test]
fn empty_clauses_and_terms_are_skipped() {
    let (d, g) = a100();
    assert_eq!(verdict("", &d, Some(&g)), "pass");
    assert_eq!(verdict("   ", &d, Some(&g)), "pass");
    assert_eq!(verdict("cuda>=12.0,,driver>=535,", &d, Some(&g)), "pass");
    assert_eq!(verdict("  cuda>=12.0  ", &d, Some(&g)), "pass");
    // A clause of only commas after a failed clause completes with the
    // previous false result still standing: dsl_evaluate reports a failure.
    assert_eq!(verdict("cuda>=13.0 ,", &d, Some(&g)), "fail");
    // The same clause alone keeps the initial true.
    assert_eq!(verdict(",", &d, Some(&g)), "pass");
}

#[test]
fn only_a_space_separates_clauses() {
    // A tab is part of the term: "12.0\tdriver>=1" is not a version.
    let (d, g) = a100();
    assert_eq!(verdict("cuda>=12.0\tdriver>=1", &d, Some(&g)), "error");
}

// ----- versions --------------------------------------------------------------

#[test]
fn trailing_zero_fields_do_not_count() {
    assert_eq!(compare_version("12.4", Cmp::Eq, "12.4.0"), Ok(true));
    assert_eq!(compare_version("12.4.0.0", Cmp::Eq, "12.4"), Ok(true));
    assert_eq!(compare_version("12", Cmp::Ge, "12.0.0"), Ok(true));
    assert_eq!(compare_version("12.4", Cmp::Lt, "12.4.0"), Ok(false));
    assert_eq!(compare_version("12.4", Cmp::Ne, "12.4.0"), Ok(false));
    // A non-zero extra field makes that side greater.
    assert_eq!(compare_version("525.60.13", Cmp::Gt, "525.60"), Ok(true));
    assert_eq!(compare_version("525.60", Cmp::Lt, "525.60.13"), Ok(true));
    assert_eq!(compare_version("12.4", Cmp::Lt, "12.4.0.1"), Ok(true));
    assert_eq!(compare_version("12.4.05", Cmp::Gt, "12.4"), Ok(true));
}

#[test]
fn fields_compare_as_numbers() {
    assert_eq!(
        compare_version("535.104.05", Cmp::Gt, "535.54.03"),
        Ok(true)
    );
    assert_eq!(compare_version("12.10", Cmp::Gt, "12.9"), Ok(true));
    assert_eq!(compare_version("12.04", Cmp::Eq, "12.4"), Ok(true));
    // Runs of dots are skipped between fields.
    assert_eq!(compare_version("12..4", Cmp::Eq, "12.4"), Ok(true));
    assert_eq!(compare_version("550.54.14", Cmp::Lt, "551"), Ok(true));
    assert_eq!(compare_version("550.54.14", Cmp::Ge, "550"), Ok(true));
}

#[test]
fn malformed_versions_are_errors_only_where_reached() {
    assert!(compare_version("12.4", Cmp::Ge, "12.x").is_err());
    assert!(compare_version("12.4", Cmp::Ge, "v12.4").is_err());
    assert!(compare_version("12.4", Cmp::Ge, ".5").is_err());
    assert!(compare_version("12.4", Cmp::Ge, "-1").is_err());
    assert!(compare_version("12.4", Cmp::Ge, "18446744073709551615").is_err());
    assert!(compare_version("12.4", Cmp::Ge, "99999999999999999999999").is_err());
    // The walk stops at the first differing field, so an overflow after it is never parsed.
    assert_eq!(
        compare_version("12.4", Cmp::Ge, "11.99999999999999999999999"),
        Ok(true)
    );
    // A leading dot on the host side is just as invalid.
    assert!(compare_version(".12", Cmp::Eq, "12").is_err());
}

#[test]
fn arch_compares_as_a_version() {
    let d = host("550.54.14", "12.4");
    assert_eq!(
        verdict("arch>=8.0", &d, Some(&gpu("8.9", "GeForce"))),
        "pass"
    );
    assert_eq!(
        verdict("arch>=9.0", &d, Some(&gpu("8.9", "GeForce"))),
        "fail"
    );
    assert_eq!(verdict("arch=8.0", &d, Some(&gpu("8.0", "Tesla"))), "pass");
    assert_eq!(
        verdict("arch=sm_80", &d, Some(&gpu("8.0", "Tesla"))),
        "error"
    );
}

// ----- brand -----------------------------------------------------------------

#[test]
fn brand_is_case_insensitive_and_only_equality() {
    let d = host("535.104.05", "12.2");
    let t4 = gpu("7.5", "Tesla");
    assert_eq!(verdict("brand=tesla", &d, Some(&t4)), "pass");
    assert_eq!(verdict("BRAND=TESLA", &d, Some(&t4)), "pass");
    assert_eq!(verdict("brand!=geforce", &d, Some(&t4)), "pass");
    assert_eq!(verdict("brand=geforce", &d, Some(&t4)), "fail");
    assert_eq!(verdict("brand>=tesla", &d, Some(&t4)), "error");
}

#[test]
fn the_runtime_names_six_brands_and_calls_the_rest_unknown() {
    assert_eq!(runtime_brand("Tesla"), "Tesla");
    assert_eq!(runtime_brand("geforce"), "GeForce");
    assert_eq!(runtime_brand("NVML_BRAND_QUADRO"), "Quadro");
    assert_eq!(runtime_brand("Titan"), "TITAN");
    assert_eq!(runtime_brand("NVIDIA"), "Unknown");
    assert_eq!(runtime_brand("nvidia_rtx"), "Unknown");
    assert_eq!(runtime_brand("Quadro RTX"), "Unknown");
    assert_eq!(runtime_brand("GeForce RTX"), "Unknown");
}

#[test]
fn rule_names_are_case_insensitive_and_unknown_ones_invalid() {
    let (d, g) = a100();
    assert_eq!(verdict("CUDA>=12.0", &d, Some(&g)), "pass");
    assert_eq!(verdict("Driver>=535", &d, Some(&g)), "pass");
    assert_eq!(verdict("gpu>=8.0", &d, Some(&g)), "error");
    assert_eq!(verdict("cudaa>=12.0", &d, Some(&g)), "error");
}

// ----- no data means true ----------------------------------------------------

#[test]
fn no_visible_device_makes_arch_and_brand_true_without_validation() {
    let d = host("535.104.05", "12.2");
    assert_eq!(verdict("arch>=9.0", &d, None), "pass");
    assert_eq!(verdict("brand=geforce", &d, None), "pass");
    // The value is never looked at, so even nonsense passes.
    assert_eq!(verdict("arch>=banana", &d, None), "pass");
    assert_eq!(verdict("brand>=x", &d, None), "pass");
    // With a device the same term is an error.
    assert_eq!(
        verdict("arch>=banana", &d, Some(&gpu("8.0", "Tesla"))),
        "error"
    );
}

#[test]
fn no_driver_information_makes_cuda_and_driver_true() {
    let d = DriverView {
        driver: Seen::Nothing,
        cuda: Seen::Nothing,
    };
    assert_eq!(verdict("cuda>=99.0", &d, None), "pass");
    assert_eq!(verdict("driver>=999", &d, None), "pass");
    assert_eq!(verdict("cuda>=x", &d, None), "pass");
}

#[test]
fn a_fact_we_lack_is_undetermined_only_if_it_is_needed() {
    let d = DriverView {
        driver: Seen::Unknown(vec![]),
        cuda: Seen::value("12.4"),
    };
    let g = gpu("9.0", "Unknown");
    assert_eq!(verdict("cuda>=12.4", &d, Some(&g)), "pass");
    assert_eq!(
        verdict(
            "cuda>=12.8 brand=unknown,driver>=550,driver<551",
            &d,
            Some(&g)
        ),
        "unknown"
    );
    // Candidates that agree decide; candidates that disagree do not.
    let d = host("535.104.05", "12.2");
    let either = DeviceView {
        label: "GPU 0".into(),
        arch: Seen::value("9.0"),
        brand: Seen::Unknown(vec!["Tesla".into(), "Unknown".into()]),
    };
    let req = "cuda>=12.4 brand=unknown,driver>=535,driver<536 brand=tesla,driver>=535,driver<536";
    assert_eq!(verdict(req, &d, Some(&either)), "pass");
    assert_eq!(
        verdict("cuda>=12.4 brand=tesla,driver>=535", &d, Some(&either)),
        "unknown"
    );
}

// ----- messages --------------------------------------------------------------

#[test]
fn the_failure_message_quotes_only_the_first_clause() {
    let (d, g) = a100();
    let e = evaluate(
        "cuda>=12.8 brand=tesla,driver>=470,driver<471",
        &d,
        Some(&g),
    );
    assert_eq!(
        e.outcome,
        Outcome::Fail {
            message: format!("unsatisfied condition: cuda>=12.8, {CUDA_HINT}")
        }
    );
    let e = evaluate("brand=geforce,driver>=999 cuda>=99", &d, Some(&g));
    assert_eq!(
        e.outcome,
        Outcome::Fail {
            message: "unsatisfied condition: brand=geforce,driver>=999".into()
        }
    );
    // A leading space makes the quoted clause empty.
    let e = evaluate(" cuda>=99", &d, Some(&g));
    assert_eq!(
        e.outcome,
        Outcome::Fail {
            message: "unsatisfied condition: ".into()
        }
    );
}

#[test]
fn a_false_term_too_long_for_the_error_buffer_is_invalid() {
    let (d, g) = a100();
    // "brand = " + value: 8 + 119 = 127 bytes fits; 8 + 120 = 128 does not.
    let fits = format!("brand={}", "x".repeat(119));
    let too_long = format!("brand={}", "x".repeat(120));
    assert_eq!(verdict(&fits, &d, Some(&g)), "fail");
    assert_eq!(verdict(&too_long, &d, Some(&g)), "error");
    // A true term of any length is fine.
    let long_true = format!("driver>=0{}", ".0".repeat(80));
    assert_eq!(verdict(&long_true, &d, Some(&g)), "pass");
}

#[test]
fn steps_name_the_terms_in_evaluation_order() {
    let (d, g) = a100();
    let e = evaluate(
        "cuda>=12.4 brand=tesla,driver>=470,driver<471",
        &d,
        Some(&g),
    );
    let terms: Vec<(usize, &str, bool)> = e
        .steps
        .iter()
        .map(|s| {
            (
                s.clause,
                s.term.as_str(),
                matches!(s.result, TermResult::True { .. }),
            )
        })
        .collect();
    assert_eq!(
        terms,
        [
            (0, "cuda>=12.4", false),
            (1, "brand=tesla", true),
            (1, "driver>=470", true),
            (1, "driver<471", false)
        ]
    );
}

// ----- the image's environment (nvidia-container-toolkit) ----------------------

fn env(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn exprs(set: &RequireSet) -> Vec<String> {
    match set {
        RequireSet::Checked { requirements } => {
            requirements.iter().map(|r| r.expr.clone()).collect()
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn every_nvidia_require_variable_is_anded() {
    let s = requirements_from_env(&env(&[
        ("NVIDIA_REQUIRE_CUDA", "cuda>=12.4"),
        ("NVIDIA_REQUIRE_ARCH", "arch>=8.0"),
        ("NVIDIA_REQUIRE_JETPACK", "csv-mounts=all"),
        ("NVIDIA_REQUIRE_JETPACK_HOST_MOUNTS", "x"),
        ("CUDA_VERSION", "12.4.1"),
    ]));
    assert_eq!(exprs(&s), ["arch>=8.0", "cuda>=12.4"]);
    let view = RuntimeView {
        driver: host("550.54.14", "12.4"),
        devices: vec![gpu("7.5", "Tesla")],
    };
    let v = evaluate_set(&s, &view);
    assert_eq!(v.verdict, "fail");
    assert_eq!(
        v.runtime_message.as_deref(),
        Some("requirement error: unsatisfied condition: arch>=8.0")
    );
}

#[test]
fn legacy_cuda_version_means_cuda_at_least() {
    let s = requirements_from_env(&env(&[("CUDA_VERSION", "9.0.176")]));
    assert_eq!(exprs(&s), ["cuda>=9.0"]);
    // An empty NVIDIA_REQUIRE_CUDA still counts as absent.
    let s = requirements_from_env(&env(&[
        ("CUDA_VERSION", "11.8.0"),
        ("NVIDIA_REQUIRE_CUDA", ""),
    ]));
    assert_eq!(exprs(&s), ["", "cuda>=11.8"]);
    // With NVIDIA_REQUIRE_CUDA set the image is not legacy.
    let s = requirements_from_env(&env(&[
        ("CUDA_VERSION", "11.8.0"),
        ("NVIDIA_REQUIRE_CUDA", "cuda>=11.8"),
    ]));
    assert_eq!(exprs(&s), ["cuda>=11.8"]);
    assert_eq!(legacy_major_minor("v10.1"), Some("10.1".into()));
    assert_eq!(legacy_major_minor("12"), Some("12.0".into()));
    assert_eq!(
        legacy_major_minor("12.4.1-rc1+build.5"),
        Some("12.4".into())
    );
    for bad in ["12.x", "12.", "1.2.3.4", "12.0-01", "abc", "12.4 "] {
        assert_eq!(legacy_major_minor(bad), None, "{bad}");
    }
    assert!(matches!(
        requirements_from_env(&env(&[("CUDA_VERSION", "twelve")])),
        RequireSet::Broken { .. }
    ));
}

#[test]
fn disable_require_takes_go_booleans_only() {
    for yes in ["1", "true", "TRUE", "True", "t", "T"] {
        let s = requirements_from_env(&env(&[
            ("NVIDIA_DISABLE_REQUIRE", yes),
            ("NVIDIA_REQUIRE_CUDA", "cuda>=99"),
        ]));
        assert!(matches!(s, RequireSet::Disabled { .. }), "{yes}");
    }
    for no in ["0", "false", "yes", "on", ""] {
        let s = requirements_from_env(&env(&[
            ("NVIDIA_DISABLE_REQUIRE", no),
            ("NVIDIA_REQUIRE_CUDA", "cuda>=99"),
        ]));
        assert_eq!(exprs(&s), ["cuda>=99"], "{no}");
    }
}

#[test]
fn every_visible_gpu_must_satisfy_it() {
    let set = RequireSet::Checked {
        requirements: vec![Requirement {
            origin: "NVIDIA_REQUIRE_CUDA".into(),
            expr: "cuda>=12.4 brand=tesla,driver>=535,driver<536".into(),
        }],
    };
    let tesla = gpu("8.0", "Tesla");
    let mut geforce = gpu("8.6", "GeForce");
    geforce.label = "GPU 1".into();
    let view = RuntimeView {
        driver: host("535.104.05", "12.2"),
        devices: vec![tesla.clone(), geforce],
    };
    let v = evaluate_set(&set, &view);
    assert_eq!(v.verdict, "fail");
    assert_eq!(v.decided_by, Some(1));
    let view = RuntimeView {
        driver: host("535.104.05", "12.2"),
        devices: vec![tesla],
    };
    assert_eq!(evaluate_set(&set, &view).verdict, "pass");
    // No visible device: evaluated once, brand passes by rule.
    let view = RuntimeView {
        driver: host("535.104.05", "12.2"),
        devices: vec![],
    };
    assert_eq!(evaluate_set(&set, &view).verdict, "pass");
}

#[test]
fn clauses_are_read_for_explanations() {
    assert_eq!(
        classify_clause("cuda>=12.8"),
        ClauseKind::Native {
            cuda: "12.8".into()
        }
    );
    assert_eq!(
        classify_clause("brand=tesla,driver>=535,driver<536"),
        ClauseKind::ForwardCompat {
            brand: "tesla".into(),
            branch: "535".into()
        }
    );
    assert_eq!(classify_clause("arch>=8.0"), ClauseKind::Other);
    let b = forward_compat_branches(
        "cuda>=12.8 brand=tesla,driver>=535,driver<536 brand=unknown,driver>=535,driver<536 brand=tesla,driver>=550,driver<551",
    );
    assert_eq!(b.len(), 2);
    assert_eq!(b["535"], ["tesla", "unknown"]);
}

/// A small deterministic generator: no test depends on chance.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn pick<'a>(&mut self, v: &[&'a str]) -> &'a str {
        v[(self.next() as usize) % v.len()]
    }
}

#[test]
fn no_input_makes_the_evaluator_panic() {
    let atoms = [
        "cuda",
        "driver",
        "arch",
        "brand",
        "CUDA",
        "=",
        "!",
        "<",
        ">",
        ",",
        " ",
        ".",
        "0",
        "9",
        "12",
        "535",
        "é",
        "\t",
        "x",
        "tesla",
        "18446744073709551616",
        "",
    ];
    let mut g = Lcg(7);
    let (d, gpu0) = a100();
    let half = DriverView {
        driver: Seen::Unknown(vec![]),
        cuda: Seen::value("12.é"),
    };
    for _ in 0..20_000 {
        let n = (g.next() % 24) as usize;
        let s: String = (0..n).map(|_| g.pick(&atoms)).collect();
        let e = evaluate(&s, &d, Some(&gpu0));
        let _ = evaluate(&s, &half, None);
        let _ = evaluate(&s, &d, None);
        // Whatever the verdict, an error names a term that is in the input.
        if let Outcome::Error { term, .. } = &e.outcome {
            assert!(s.contains(term.as_str()), "{s:?} {term:?}");
        }
        let _ = legacy_major_minor(&s);
        let _ = parse_term(&s);
        let _ = classify_clause(&s);
    }
}
