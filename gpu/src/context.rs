//! [`GpuContext`]: an open device with the HP-RDA pipelines compiled.

use crate::adapter::{pick_adapter, summary, AdapterSummary};
use crate::kernel::ENTRY_POINTS;
use crate::GpuError;

/// An open device with the HP-RDA pipelines compiled.
pub struct GpuContext {
    pub(crate) device: wgpu::Device,
    pub(crate) queue: wgpu::Queue,
    pub(crate) layout: wgpu::BindGroupLayout,
    pub(crate) pipelines: Vec<wgpu::ComputePipeline>,
    pub(crate) info: AdapterSummary,
    pub(crate) max_binding: u64,
    pub(crate) max_groups: u32,
}

impl GpuContext {
    /// Opens the adapter `wanted` (name substring) or the best one, and compiles the kernels.
    pub fn new(wanted: Option<&str>) -> Result<Self, GpuError> {
        let adapter = pick_adapter(wanted)?;
        let info = summary(&adapter);
        let limits = adapter.limits();
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("rdgpu"),
            required_limits: limits.clone(),
            ..Default::default()
        }))
        .map_err(|source| GpuError::Device {
            adapter: info.name.clone(),
            source,
        })?;
        let storage = |binding: u32, read_only: bool| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let mut entries = vec![wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }];
        entries.push(storage(1, true));
        entries.extend((2..15).map(|b| storage(b, false)));
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("hprda"),
            entries: &entries,
        });
        let pl = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("hprda"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("hprda.wgsl"),
            source: wgpu::ShaderSource::Wgsl(include_str!("hprda.wgsl").into()),
        });
        let pipelines = ENTRY_POINTS
            .iter()
            .map(|ep| {
                device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(ep),
                    layout: Some(&pl),
                    module: &module,
                    entry_point: Some(ep),
                    compilation_options: Default::default(),
                    cache: None,
                })
            })
            .collect();
        Ok(GpuContext {
            device,
            queue,
            layout,
            pipelines,
            info,
            max_binding: limits
                .max_storage_buffer_binding_size
                .min(limits.max_buffer_size),
            max_groups: limits.max_compute_workgroups_per_dimension,
        })
    }

    /// The adapter in use.
    pub fn adapter(&self) -> &AdapterSummary {
        &self.info
    }
}
