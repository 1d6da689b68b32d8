//! Files the user may not read degrade to a Note and the next source.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use gpucompat::kb::Kb;
use gpucompat::probe::{probe, ProbeOptions};
use gpucompat::system::Host;

mod common;
use common::copy_tree;

#[test]
fn unreadable_files_become_notes() {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/geforce-desktop");
    copy_tree(&src, dir.path());
    let locked = [
        dir.path().join("sys/module/nvidia/version"),
        dir.path().join("etc/os-release"),
    ];
    for p in &locked {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o000)).unwrap();
    }
    let inv = probe(
        &Host::new(dir.path()),
        Kb::embedded(),
        &ProbeOptions::default(),
    );
    if std::fs::File::open(&locked[0]).is_ok() {
        // Running as root: permissions do not stop reads; the odd-files
        // fixture covers an unreadable path for every user.
        assert!(inv.nvidia.kernel_module.is_some());
        return;
    }
    for p in ["/sys/module/nvidia/version", "/etc/os-release"] {
        assert!(
            inv.notes
                .iter()
                .any(|n| n.subject == p && n.message.contains("unreadable")),
            "{p}: {:?}",
            inv.notes
        );
    }
    // The kernel module version falls back to /proc/driver/nvidia/version.
    let k = inv.nvidia.kernel_module.as_ref().unwrap();
    assert_eq!(k.source, "/proc/driver/nvidia/version");
    assert!(inv.os.pretty_name.is_none());
}
