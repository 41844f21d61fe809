//! `rda-report gpu-info` and the `hprda-gpu` engine (build feature `gpu`).

use crate::output::{OutputArgs, Table};
use anyhow::Result;
use rdengines::{EngineConfig, ReuseEngine};

/// Arguments of `gpu-info`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    after_help = "Examples:\n  rda-report gpu-info\n  rda-report gpu-info --json\n  rda-report histogram app.rdtrace --engine hprda-gpu --adapter llvmpipe"
)]
pub struct GpuInfoArgs {
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Lists the Vulkan adapters `hprda-gpu` can use; an error (exit 1) when there are none.
pub fn run(args: &GpuInfoArgs) -> Result<()> {
    let adapters = rdgpu::list_adapters();
    if adapters.is_empty() {
        return Err(rdgpu::GpuError::NoAdapter.into());
    }
    let mut t = Table::new([
        "adapter",
        "type",
        "backend",
        "driver",
        "max storage binding",
    ])
    .titled("GPU adapters (Vulkan)");
    for a in &adapters {
        t.row([
            a.name.clone(),
            a.device_type.clone(),
            a.backend.clone(),
            a.driver.clone(),
            a.max_storage_buffer_binding_size.to_string(),
        ]);
    }
    args.out.emit(&adapters, &[t])
}

/// The `hprda-gpu` engine with the HP-RDA settings of `cfg`.
pub fn engine(cfg: &EngineConfig, adapter: Option<&str>) -> Result<Box<dyn ReuseEngine>> {
    Ok(Box::new(rdgpu::GpuHpRdaEngine::new(
        cfg.hprda, cfg.bound, adapter,
    )?))
}
