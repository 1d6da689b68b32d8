# gpucompat inventory script: what torch says about itself and the GPU, as one
# JSON line after the marker. gpucompat runs it as `python -I -S -B -c <this>` (isolated:
# no PYTHON* variables, no user site, not the working directory) in `/`, with a minimal
# environment and a timeout; it must not reach the network, write files, or fail without
# saying why.
# Kept compatible with Python 2.7 so that an old interpreter reports itself too.
import os
import sys

MARK = "GPUCOMPAT_JSON "


def quiet_env():
    for k in list(os.environ):
        if k.lower() in ("http_proxy", "https_proxy", "all_proxy", "ftp_proxy"):
            del os.environ[k]
    os.environ.update({
        "no_proxy": "*",
        "NO_PROXY": "*",
        "PIP_NO_INDEX": "1",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "CUDA_CACHE_DISABLE": "1",
        "TORCHINDUCTOR_CACHE_DIR": os.devnull,
    })
    sys.dont_write_bytecode = True


def block_network():
    import socket

    def refuse(*args, **kwargs):
        raise IOError("network access is disabled by gpucompat")

    for name in ("connect", "connect_ex", "sendto"):
        try:
            setattr(socket.socket, name, refuse)
        except Exception:
            pass
    socket.create_connection = refuse
    socket.getaddrinfo = refuse


def describe(e):
    text = str(e).strip().splitlines()
    return "%s: %s" % (type(e).__name__, text[0] if text else "")


def torch_facts(out):
    t = {"installed": True}
    out["torch"] = t
    try:
        import torch
    except ImportError as e:
        missing = getattr(e, "name", None) == "torch" or str(e) == "No module named torch"
        if missing:
            t["installed"] = False
        else:
            t["import_error"] = describe(e)
        return
    except Exception as e:
        t["import_error"] = describe(e)
        return
    t["version"] = str(getattr(torch, "__version__", "")) or None
    v = getattr(torch, "version", None)
    t["cuda"] = getattr(v, "cuda", None)
    t["hip"] = getattr(v, "hip", None)
    t["git_version"] = getattr(v, "git_version", None)
    try:
        t["cudnn"] = torch.backends.cudnn.version()
    except Exception:
        t["cudnn"] = None
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            t["cuda_available"] = bool(torch.cuda.is_available())
        except Exception as e:
            t["cuda_available"] = False
            t["cuda_error"] = describe(e)
    msgs = [str(w.message).strip().splitlines()[0] for w in caught if str(w.message).strip()]
    if msgs:
        t["warnings"] = msgs
    try:
        t["arch_list"] = list(torch.cuda.get_arch_list())
    except Exception:
        t["arch_list"] = None
    if not t.get("cuda_available"):
        return
    try:
        n = int(torch.cuda.device_count())
        t["device_count"] = n
        devices = []
        for i in range(n):
            p = torch.cuda.get_device_properties(i)
            devices.append({
                "index": i,
                "name": p.name,
                "capability": "%d.%d" % (p.major, p.minor),
                "total_memory_mib": int(p.total_memory) // (1024 * 1024),
            })
        t["devices"] = devices
    except Exception as e:
        t["cuda_error"] = describe(e)
        return
    t["matmul"] = matmul(torch)


def matmul(torch):
    """A 512x512 fp16 matmul on GPU 0, checked against a float32 CPU reference."""
    m = {"ok": False}
    try:
        g = torch.Generator().manual_seed(0)
        a = torch.randn(512, 512, generator=g).half()
        b = torch.randn(512, 512, generator=g).half()
        ref = torch.matmul(a.float(), b.float())
        got = torch.matmul(a.cuda(), b.cuda()).float().cpu()
        torch.cuda.synchronize()
        err = float((got - ref).abs().max())
        scale = float(ref.abs().max())
        m["max_abs_error"] = err
        m["max_abs_reference"] = scale
        # fp16 output rounding alone is ~5e-4 relative; 1e-2 leaves room for
        # reduced-precision accumulation but catches garbage, zeros and NaN.
        m["ok"] = bool(err == err and err <= 1e-2 * max(scale, 1.0))
    except Exception as e:
        m["error"] = describe(e)
    return m


def main():
    # Python 2 has no -I: it runs with -E -s, and the working directory leaves sys.path here.
    sys.path[:] = [p for p in sys.path if p not in ("", ".")]
    out = {"schema": 1, "python": {
        "version": "%d.%d.%d" % tuple(sys.version_info[:3]),
        "executable": sys.executable,
    }}
    try:
        quiet_env()
        block_network()
        import site
        site.main()
        out["python"]["prefix"] = sys.prefix
        torch_facts(out)
    except BaseException as e:
        out["error"] = describe(e)
    sys.stdout.write(MARK + json_dumps(out) + "\n")
    sys.stdout.flush()


def json_dumps(o):
    import json
    return json.dumps(o, sort_keys=True)


main()
