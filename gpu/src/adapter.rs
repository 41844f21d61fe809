//! Vulkan instance and adapters: listing them for `gpu-info` and picking one to open.

use crate::GpuError;

/// What `gpu-info` prints about one adapter.
#[derive(Clone, Debug, serde::Serialize)]
pub struct AdapterSummary {
    /// Adapter name (e.g. `llvmpipe (LLVM 15.0.6, 256 bits)` for lavapipe).
    pub name: String,
    /// Integrated, discrete, virtual, CPU, other.
    pub device_type: String,
    /// Backend (Vulkan).
    pub backend: String,
    /// Driver name and version string.
    pub driver: String,
    /// Largest storage-buffer binding in bytes.
    pub max_storage_buffer_binding_size: u64,
}

fn instance() -> wgpu::Instance {
    wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::VULKAN,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    })
}

pub(crate) fn summary(a: &wgpu::Adapter) -> AdapterSummary {
    let i = a.get_info();
    AdapterSummary {
        name: i.name,
        device_type: format!("{:?}", i.device_type),
        backend: format!("{:?}", i.backend),
        driver: format!("{} {}", i.driver, i.driver_info).trim().to_string(),
        max_storage_buffer_binding_size: a.limits().max_storage_buffer_binding_size,
    }
}

/// Lists the Vulkan adapters (possibly none).
pub fn list_adapters() -> Vec<AdapterSummary> {
    let inst = instance();
    pollster::block_on(inst.enumerate_adapters(wgpu::Backends::VULKAN))
        .iter()
        .map(summary)
        .collect()
}

/// Picks an adapter: the first whose name contains `wanted` (case-insensitive), else a
/// discrete GPU, an integrated one, then anything (lavapipe is a CPU adapter).
pub(crate) fn pick_adapter(wanted: Option<&str>) -> Result<wgpu::Adapter, GpuError> {
    let inst = instance();
    let mut adapters = pollster::block_on(inst.enumerate_adapters(wgpu::Backends::VULKAN));
    if adapters.is_empty() {
        return Err(GpuError::NoAdapter);
    }
    if let Some(w) = wanted {
        let wl = w.to_lowercase();
        return match adapters
            .iter()
            .position(|a| a.get_info().name.to_lowercase().contains(&wl))
        {
            Some(i) => Ok(adapters.swap_remove(i)),
            None => Err(GpuError::AdapterNotFound {
                wanted: w.to_string(),
                available: adapters
                    .iter()
                    .map(|a| a.get_info().name)
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
        };
    }
    let rank = |a: &wgpu::Adapter| match a.get_info().device_type {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Other => 3,
        wgpu::DeviceType::Cpu => 4,
    };
    adapters.sort_by_key(rank);
    Ok(adapters.swap_remove(0))
}
