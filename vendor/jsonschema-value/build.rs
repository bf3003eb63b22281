fn main() {
    #[cfg(feature = "pyo3")]
    pyo3_build_config::use_pyo3_cfgs();
}
