//! What users see of Python environments: the card's text lines, its Markdown
//! rows and the JSON of an environment, on fixture machines.

use std::path::{Path, PathBuf};

use gpucompat::inventory::PythonEnv;
use gpucompat::probe::python::discover;
use gpucompat::probe::ProbeOptions;
use gpucompat::render::python_envs::{markdown_rows, text_lines};
use gpucompat::system::Host;

fn envs(scenario: &str, python: &[&str], exec: bool) -> Vec<PythonEnv> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/python")
        .join(scenario);
    let opts = ProbeOptions {
        python: python.iter().map(PathBuf::from).collect(),
        exec_python: exec,
        allow_root_code: true,
        ..Default::default()
    };
    discover(&Host::new(root), &opts).0
}

#[test]
fn text_of_a_cuda_machine() {
    let e = envs("cuda_torch", &[], false);
    insta::assert_snapshot!("cuda_torch_text", text_lines(&e, false).join("\n"));
    insta::assert_snapshot!("cuda_torch_text_verbose", text_lines(&e, true).join("\n"));
}

#[test]
fn text_of_every_discovery_source() {
    let e = envs("machine", &["/opt/custom"], false);
    insta::assert_snapshot!("machine_text", text_lines(&e, false).join("\n"));
}

#[test]
fn text_with_runtime_facts() {
    let e = envs(
        "exec",
        &["/envs/gpu", "/envs/old-driver", "/envs/broken"],
        true,
    );
    insta::assert_snapshot!("exec_text", text_lines(&e, false).join("\n"));
}

#[test]
fn markdown_rows_of_mixed_builds() {
    let mut e = envs("ort_both", &[], false);
    e.extend(envs("ort_cuda11", &[], false).into_iter().take(1));
    e.extend(envs("rocm_torch", &[], false).into_iter().take(1));
    e.extend(envs("tensorflow", &[], false).into_iter().take(1));
    e.extend(envs("jax_cuda12", &[], false).into_iter().take(1));
    insta::assert_snapshot!("mixed_markdown", markdown_rows(&e).join("\n"));
}

#[test]
fn json_of_an_environment() {
    let e = envs("cuda_torch", &[], false);
    insta::assert_json_snapshot!("cuda_torch_json", e[0]);
}

#[test]
fn an_empty_section() {
    assert_eq!(text_lines(&[], false), ["Python environments: 0"]);
    assert_eq!(markdown_rows(&[]).len(), 2);
}
