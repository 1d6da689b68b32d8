//! Damaged and oversized environments: each gives "unknown" with a note,
//! never a panic or a long stall.

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use gpucompat::inventory::{Note, PythonEnv};
use gpucompat::probe::python::discover;
use gpucompat::probe::ProbeOptions;
use gpucompat::system::Host;

const SITE: &str = "env/lib/python3.12/site-packages";

/// A venv at /env (under a temporary root) given by --python.
fn venv() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    fs::create_dir_all(r.join("usr/bin")).unwrap();
    fs::create_dir_all(r.join(SITE)).unwrap();
    fs::write(
        r.join("env/pyvenv.cfg"),
        "home = /usr/bin\nversion = 3.12.3\n",
    )
    .unwrap();
    dir
}

fn dist(root: &Path, name: &str, version: &str) {
    let d = root.join(SITE).join(format!("{name}-{version}.dist-info"));
    fs::create_dir_all(&d).unwrap();
    fs::write(
        d.join("METADATA"),
        format!("Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n\n"),
    )
    .unwrap();
}

fn probe(root: &Path) -> (PythonEnv, Vec<Note>, Duration) {
    let opts = ProbeOptions {
        python: vec!["/env".into()],
        exec_python: false,
        ..Default::default()
    };
    let t = Instant::now();
    let (envs, notes) = discover(&Host::new(root), &opts);
    let took = t.elapsed();
    let env = envs
        .into_iter()
        .find(|e| e.path == "/env")
        .expect("the venv is found");
    (env, notes, took)
}

#[test]
fn five_thousand_packages_read_quickly() {
    let dir = venv();
    let r = dir.path();
    for i in 0..4990 {
        dist(r, &format!("pkg{i}"), "1.0");
    }
    for n in [
        "torch",
        "torchvision",
        "triton",
        "onnxruntime",
        "jax",
        "jaxlib",
        "xformers",
        "vllm",
        "bitsandbytes",
        "nvidia_nccl_cu12",
    ] {
        dist(r, n, "1.0");
    }
    let (env, notes, took) = probe(r);
    assert_eq!(env.packages.len(), 10);
    assert!(
        notes
            .iter()
            .any(|n| n.message.contains("torch/version.py is missing")),
        "{notes:?}"
    );
    // Debug build, a loaded CI machine: generous, but far from a stall.
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

#[test]
fn an_oversized_directory_is_cut_off_with_a_note() {
    let dir = venv();
    let r = dir.path();
    dist(r, "torch", "2.5.1");
    for i in 0..20_050 {
        fs::write(r.join(SITE).join(format!("m{i:05}.py")), "").unwrap();
    }
    let (_, notes, took) = probe(r);
    assert!(
        notes
            .iter()
            .any(|n| n.message.contains("only the first 20000")),
        "{notes:?}"
    );
    assert!(took < Duration::from_secs(10), "took {took:?}");
}

#[test]
fn site_packages_as_a_symlink_loop() {
    let dir = venv();
    let r = dir.path();
    fs::remove_dir(r.join(SITE)).unwrap();
    std::os::unix::fs::symlink("site-packages", r.join(SITE)).unwrap();
    let (env, notes, _) = probe(r);
    assert!(env.packages.is_empty());
    assert!(
        env.site_packages.is_empty(),
        "a loop is no directory: {:?}",
        env.site_packages
    );
    let n: Vec<_> = notes.iter().filter(|n| n.subject.ends_with(SITE)).collect();
    assert_eq!(n.len(), 1, "{notes:?}");
    assert!(n[0].message.contains("symlink loop"));
    // And a dist-info that loops is skipped, not followed.
    let dir = venv();
    let r = dir.path();
    std::os::unix::fs::symlink(
        "torch-2.5.1.dist-info",
        r.join(SITE).join("torch-2.5.1.dist-info"),
    )
    .unwrap();
    let (env, _, _) = probe(r);
    assert!(env.packages.is_empty(), "{:?}", env.packages);
}

#[test]
fn unreadable_metadata_and_directories() {
    let dir = venv();
    let r = dir.path();
    // A METADATA that cannot be read as a file (a directory): the version comes from the name.
    let d = r.join(SITE).join("torch-2.5.1.dist-info");
    fs::create_dir_all(d.join("METADATA")).unwrap();
    let (env, notes, _) = probe(r);
    assert_eq!(env.package("torch").unwrap().version, "2.5.1");
    let n: Vec<_> = notes
        .iter()
        .filter(|n| n.subject.ends_with("torch-2.5.1.dist-info/METADATA"))
        .collect();
    assert_eq!(n.len(), 1, "{notes:?}");
    assert!(
        n[0].message.starts_with("cannot read ("),
        "{}",
        n[0].message
    );
    assert!(n[0]
        .message
        .ends_with("the version 2.5.1 is taken from the directory name"));

    // Permission bits do not stop root; test them only as another user.
    if fs::read_dir("/root").is_err() {
        let dir = venv();
        let r = dir.path();
        dist(r, "torch", "2.5.1");
        use std::os::unix::fs::PermissionsExt;
        let site = r.join(SITE);
        fs::set_permissions(&site, fs::Permissions::from_mode(0o000)).unwrap();
        let (env, notes, _) = probe(r);
        fs::set_permissions(&site, fs::Permissions::from_mode(0o755)).unwrap();
        assert!(env.packages.is_empty());
        assert!(
            notes
                .iter()
                .any(|n| n.message.starts_with("cannot list site-packages")),
            "{notes:?}"
        );
    }
}

#[test]
fn damaged_version_files() {
    let dir = venv();
    let r = dir.path();
    dist(r, "torch", "2.5.1");
    fs::create_dir_all(r.join(SITE).join("torch")).unwrap();
    fs::write(
        r.join(SITE).join("torch/version.py"),
        b"\xff\xfe\x00garbage\ncuda = 'twelve'\n",
    )
    .unwrap();
    dist(r, "tensorflow", "2.18.1");
    fs::create_dir_all(r.join(SITE).join("tensorflow/python/platform")).unwrap();
    fs::write(
        r.join(SITE)
            .join("tensorflow/python/platform/build_info.py"),
        "build_info = {'cuda_version': ",
    )
    .unwrap();
    let (env, notes, _) = probe(r);
    let t = env.torch.as_ref().unwrap();
    assert_eq!(
        t.version.as_ref().unwrap().value,
        "2.5.1",
        "from the dist-info"
    );
    assert_eq!(t.cuda, None);
    assert!(
        notes.iter().any(|n| n.message.contains("no __version__")),
        "{notes:?}"
    );
    assert!(
        notes.iter().any(|n| n.message.contains("\"twelve\"")),
        "{notes:?}"
    );
    let tf = env.tensorflow.as_ref().unwrap();
    assert_eq!(tf.version.as_ref().unwrap().value, "2.18.1");
    assert_eq!(tf.cuda, None);
}

#[test]
fn a_metadata_without_a_version_anywhere() {
    let dir = venv();
    let r = dir.path();
    let d = r.join(SITE).join("torch.dist-info");
    fs::create_dir_all(&d).unwrap();
    fs::write(d.join("METADATA"), "Name: torch\n").unwrap();
    let (env, notes, _) = probe(r);
    assert_eq!(env.package("torch").unwrap().version, "unknown");
    assert!(
        notes
            .iter()
            .any(|n| n.message.contains("no version in the directory name")),
        "{notes:?}"
    );
}

#[test]
fn a_long_symlink_chain_for_an_interpreter() {
    let dir = venv();
    let r = dir.path();
    fs::create_dir_all(r.join("opt/bin")).unwrap();
    for i in 0..60 {
        std::os::unix::fs::symlink(format!("p{}", i + 1), r.join(format!("opt/bin/p{i}"))).unwrap();
    }
    fs::write(r.join("opt/bin/p60"), "").unwrap();
    let opts = ProbeOptions {
        python: vec!["/opt/bin/p0".into()],
        exec_python: false,
        ..Default::default()
    };
    let (envs, notes) = discover(&Host::new(r), &opts);
    assert!(envs.is_empty(), "{envs:?}");
    let n: Vec<_> = notes
        .iter()
        .filter(|n| n.subject == "/opt/bin/p0")
        .collect();
    assert_eq!(n.len(), 1, "{notes:?}");
    assert!(n[0].message.contains("symlink loop"), "{}", n[0].message);
}
