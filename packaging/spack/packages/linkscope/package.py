# Spack package for linkscope (as nccl-tests and nvbandwidth are packaged).
# Use: spack repo add packaging/spack  (this folder's parent holds repo.yaml), then
#      spack install linkscope +cuda cuda_arch=90
from spack.package import *


class Linkscope(CMakePackage, CudaPackage):
    """Measures and explains GPU interconnects: P2P, latency, HBM, host copies and NCCL
    collectives in one run document, with findings, a plan and reports."""

    # The project has no public address yet: set both when it has one.
    homepage = "https://example.invalid/linkscope"
    git = "https://example.invalid/linkscope.git"

    maintainers("linkscope")
    license("MIT")

    version("main", branch="main")

    variant("nccl", default=True, description="Compile the collectives against nccl.h (NCCL is loaded at run time)")
    variant("tests", default=False, description="Build the host tests (cmocka)")

    depends_on("c", type="build")
    depends_on("cmake@3.24:", type="build")  # CMakeLists.txt cmake_minimum_required
    depends_on("jansson")
    depends_on("nccl", when="+nccl", type="build")
    depends_on("cmocka", when="+tests", type="build")

    def cmake_args(self):
        args = [
            self.define_from_variant("LINKSCOPE_CUDA", "cuda"),
            self.define_from_variant("LINKSCOPE_TESTS", "tests"),
        ]
        if self.spec.satisfies("+cuda"):
            archs = self.spec.variants["cuda_arch"].value
            if archs and archs[0] != "none":
                args.append(self.define("LINKSCOPE_CUDA_ARCHS", ";".join(archs)))
        return args
