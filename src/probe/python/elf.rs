//! The DT_NEEDED entries of an ELF shared library, read with a few ranged
//! reads (the libraries in question are hundreds of MiB): onnxruntime before
//! 1.21 records its CUDA build only as `libcudart.so.11.0` there.

use std::path::Path;

use crate::system::System;

const PT_LOAD: u32 = 1;
const PT_DYNAMIC: u32 = 2;
const DT_NULL: u64 = 0;
const DT_NEEDED: u64 = 1;
const DT_STRTAB: u64 = 5;
const DT_STRSZ: u64 = 10;

struct Reader {
    le: bool,
    wide: bool,
}

impl Reader {
    fn u16(&self, b: &[u8], at: usize) -> Option<u16> {
        let s: [u8; 2] = b.get(at..at + 2)?.try_into().ok()?;
        Some(if self.le {
            u16::from_le_bytes(s)
        } else {
            u16::from_be_bytes(s)
        })
    }
    fn u32(&self, b: &[u8], at: usize) -> Option<u32> {
        let s: [u8; 4] = b.get(at..at + 4)?.try_into().ok()?;
        Some(if self.le {
            u32::from_le_bytes(s)
        } else {
            u32::from_be_bytes(s)
        })
    }
    fn u64(&self, b: &[u8], at: usize) -> Option<u64> {
        let s: [u8; 8] = b.get(at..at + 8)?.try_into().ok()?;
        Some(if self.le {
            u64::from_le_bytes(s)
        } else {
            u64::from_be_bytes(s)
        })
    }
    /// A word: 8 bytes in ELF64, 4 in ELF32.
    fn word(&self, b: &[u8], at: usize) -> Option<u64> {
        if self.wide {
            self.u64(b, at)
        } else {
            self.u32(b, at).map(u64::from)
        }
    }
}

/// The libraries `path` asks the loader for, in order.
pub(crate) fn needed(sys: &dyn System, path: &Path) -> Result<Vec<String>, String> {
    let read = |off: u64, len: usize| {
        sys.read_range(path, off, len)
            .map_err(|e| super::io_reason(&e, path))
    };
    let head = read(0, 64)?;
    if head.get(..4) != Some(b"\x7fELF") {
        return Err("not an ELF file".into());
    }
    let r = Reader {
        wide: head.get(4) == Some(&2),
        le: head.get(5) != Some(&2),
    };
    let bad = || "truncated or malformed ELF header".to_string();
    let (phoff, phentsize, phnum) = if r.wide {
        (r.u64(&head, 0x20), r.u16(&head, 0x36), r.u16(&head, 0x38))
    } else {
        (
            r.u32(&head, 0x1c).map(u64::from),
            r.u16(&head, 0x2a),
            r.u16(&head, 0x2c),
        )
    };
    let (phoff, phentsize, phnum) = (
        phoff.ok_or_else(bad)?,
        phentsize.ok_or_else(bad)? as usize,
        phnum.ok_or_else(bad)? as usize,
    );
    if phnum == 0 || phnum > 512 || phentsize < if r.wide { 56 } else { 32 } {
        return Err(bad());
    }
    let ph = read(phoff, phentsize * phnum)?;
    // (vaddr, offset, filesz) of each PT_LOAD; the dynamic section's place.
    let mut loads = Vec::new();
    let mut dynamic = None;
    for i in 0..phnum {
        let at = i * phentsize;
        let Some(kind) = r.u32(&ph, at) else { break };
        let fields = if r.wide {
            (r.u64(&ph, at + 8), r.u64(&ph, at + 16), r.u64(&ph, at + 32))
        } else {
            (
                r.u32(&ph, at + 4).map(u64::from),
                r.u32(&ph, at + 8).map(u64::from),
                r.u32(&ph, at + 16).map(u64::from),
            )
        };
        let (Some(offset), Some(vaddr), Some(filesz)) = fields else {
            break;
        };
        match kind {
            PT_LOAD => loads.push((vaddr, offset, filesz)),
            PT_DYNAMIC => dynamic = Some((offset, filesz)),
            _ => {}
        }
    }
    let (dyn_off, dyn_size) = dynamic.ok_or("no dynamic section (a static executable?)")?;
    let dyn_bytes = read(dyn_off, (dyn_size as usize).min(256 * 1024))?;
    let entsize = if r.wide { 16 } else { 8 };
    let (mut strtab, mut strsz, mut needed_offsets) = (None, None, Vec::new());
    for i in 0..dyn_bytes.len() / entsize {
        let at = i * entsize;
        let (Some(tag), Some(val)) = (r.word(&dyn_bytes, at), r.word(&dyn_bytes, at + entsize / 2))
        else {
            break;
        };
        match tag {
            DT_NULL => break,
            DT_NEEDED => needed_offsets.push(val),
            DT_STRTAB => strtab = Some(val),
            DT_STRSZ => strsz = Some(val),
            _ => {}
        }
    }
    let strtab = strtab.ok_or("no string table in the dynamic section")?;
    let str_off = loads
        .iter()
        .find(|(vaddr, _, filesz)| strtab >= *vaddr && strtab < vaddr + filesz)
        .map(|(vaddr, offset, _)| strtab - vaddr + offset)
        .ok_or("the string table lies outside every loaded segment")?;
    let size = strsz.unwrap_or(64 * 1024).min(1024 * 1024) as usize;
    let strings = read(str_off, size)?;
    Ok(needed_offsets
        .into_iter()
        .filter_map(|o| {
            let rest = strings.get(o as usize..)?;
            let end = rest.iter().position(|&b| b == 0)?;
            Some(String::from_utf8_lossy(rest.get(..end)?).into_owned())
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::Host;

    fn fixture() -> Host {
        Host::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/python/ort_cuda11"
        ))
    }

    const CAPI: &str = "/home/u/ort11/lib/python3.10/site-packages/onnxruntime/capi";

    #[test]
    fn needed_libraries_of_a_real_shared_object() {
        let so = Path::new(CAPI).join("libonnxruntime_providers_cuda.so");
        assert_eq!(
            needed(&fixture(), &so).unwrap(),
            [
                "libcublas.so.11",
                "libcudnn.so.8",
                "libcudart.so.11.0",
                "libc.so.6"
            ]
        );
    }

    #[test]
    fn other_files_are_refused() {
        let h = fixture();
        let not_elf = Path::new(CAPI).join("libonnxruntime_providers_tensorrt.so");
        assert_eq!(needed(&h, &not_elf).unwrap_err(), "not an ELF file");
        assert!(needed(&h, Path::new("/missing.so")).is_err());
        // A truncated header: the real file's first 64 bytes only.
        let dir = tempfile::tempdir().unwrap();
        let real = h
            .read(&Path::new(CAPI).join("libonnxruntime_providers_cuda.so"))
            .unwrap();
        std::fs::write(dir.path().join("cut.so"), &real[..64]).unwrap();
        assert!(needed(&Host::new(dir.path()), Path::new("/cut.so")).is_err());
    }
}
