//! The device runtime of parad's GPU backends.
//!
//! The host code that a GPU backend generates is C; it does not talk to
//! OpenCL itself but calls a small table of device operations
//! ([`device::ParadDevice`]: allocate, release, write, read, copy,
//! launch, last error) that parad hands it when the program is loaded.
//! [`device`] defines that table and its C-ABI conventions;
//! [`opencl`] implements it over OpenCL, whose library is opened at run
//! time, so parad builds and runs on machines without OpenCL and only
//! asking for an OpenCL device fails there.

pub mod device;
pub mod kernels;
pub mod opencl;
pub mod print;
