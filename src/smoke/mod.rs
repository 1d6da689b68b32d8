//! Prove the GPU computes: a real fp16 GEMM through the CUDA driver and cuBLAS.
