; The built-in GEMM kernel of `gpucompat smoke`, used when no cuBLAS is found.
; C (f32, row-major n x n) = A (f16, row-major) * B (f16, row-major); one thread per element of C.
; Regenerate hgemm.ptx (LLVM 14): llc -O2 -march=nvptx64 -mcpu=sm_50 -mattr=+ptx60 hgemm.ll -o hgemm.ptx
; PTX ISA 6.0 and sm_50 keep it loadable by every driver since CUDA 9.0, which JIT-compiles it for newer GPUs.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
declare float @llvm.fma.f32(float, float, float)

define void @gpucompat_hgemm(half* %a, half* %b, float* %c, i32 %n) {
entry:
  %ga = addrspacecast half* %a to half addrspace(1)*
  %gb = addrspacecast half* %b to half addrspace(1)*
  %gc = addrspacecast float* %c to float addrspace(1)*
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %dx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %dy = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %cx = mul i32 %bx, %dx
  %col = add i32 %cx, %tx
  %cy = mul i32 %by, %dy
  %row = add i32 %cy, %ty
  %colok = icmp ult i32 %col, %n
  %rowok = icmp ult i32 %row, %n
  %ok = and i1 %colok, %rowok
  br i1 %ok, label %pre, label %exit

pre:
  %rowbase = mul i32 %row, %n
  br label %loop

loop:
  %k = phi i32 [ 0, %pre ], [ %knext, %loop ]
  %acc = phi float [ 0.0, %pre ], [ %accnext, %loop ]
  %ai = add i32 %rowbase, %k
  %ai64 = zext i32 %ai to i64
  %ap = getelementptr half, half addrspace(1)* %ga, i64 %ai64
  %av = load half, half addrspace(1)* %ap, align 2
  %bk = mul i32 %k, %n
  %bi = add i32 %bk, %col
  %bi64 = zext i32 %bi to i64
  %bp = getelementptr half, half addrspace(1)* %gb, i64 %bi64
  %bv = load half, half addrspace(1)* %bp, align 2
  %af = fpext half %av to float
  %bf = fpext half %bv to float
  %accnext = call float @llvm.fma.f32(float %af, float %bf, float %acc)
  %knext = add i32 %k, 1
  %more = icmp ult i32 %knext, %n
  br i1 %more, label %loop, label %store

store:
  %ci = add i32 %rowbase, %col
  %ci64 = zext i32 %ci to i64
  %cp = getelementptr float, float addrspace(1)* %gc, i64 %ci64
  store float %accnext, float addrspace(1)* %cp, align 4
  br label %exit

exit:
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (half*, half*, float*, i32)* @gpucompat_hgemm, !"kernel", i32 1}
