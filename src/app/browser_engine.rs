//! The engine's plugins in the browser: Bevy's `DefaultPlugins` for the features the browser build
//! has, with a lighter log. Bevy's `LogPlugin` sets up `EnvFilter`, whose directive parsing and
//! matching weighed 18 kB of the gzipped download although the page has no environment to read a
//! filter from; `DefaultPlugins` would link it even with the plugin disabled, so the browser lists
//! its plugins here. The list follows `bevy_internal`'s `default_plugins.rs` (0.19) for the
//! features the browser build enables (Cargo.toml); a Bevy upgrade must compare the two.

use bevy::app::{PanicHandlerPlugin, PluginGroupBuilder, TaskPoolPlugin};
use bevy::prelude::*;

/// `DefaultPlugins` for the browser build, with [`browser_log`] in place of `LogPlugin`.
pub struct BrowserPlugins;

impl PluginGroup for BrowserPlugins {
    fn build(self) -> PluginGroupBuilder {
        PluginGroupBuilder::start::<Self>()
            .add(PanicHandlerPlugin)
            .add(browser_log)
            .add(TaskPoolPlugin::default())
            .add(bevy::diagnostic::FrameCountPlugin)
            .add(bevy::time::TimePlugin)
            .add(bevy::transform::TransformPlugin)
            .add(bevy::diagnostic::DiagnosticsPlugin)
            .add(bevy::input::InputPlugin)
            .add(bevy::window::WindowPlugin::default())
            .add(bevy::a11y::AccessibilityPlugin)
            .add(bevy::asset::AssetPlugin::default())
            .add(bevy::winit::WinitPlugin::default())
            .add(bevy::render::RenderPlugin::default())
            .add(bevy::image::ImagePlugin::default())
            .add(bevy::mesh::MeshPlugin)
            .add(bevy::camera::CameraPlugin)
            .add(bevy::core_pipeline::CorePipelinePlugin)
            .add(bevy::sprite::SpritePlugin)
            .add(bevy::sprite_render::SpriteRenderPlugin)
            .add(bevy::gilrs::GilrsPlugin)
            .add(bevy::state::app::StatesPlugin)
            .add_group(bevy::picking::DefaultPickingPlugins)
    }
}

/// The page's console gets the engine's and the game's log (through `tracing`, and the `log` crate
/// that wgpu writes to), with `LogPlugin`'s default levels: info, wgpu's errors only, naga's
/// warnings. (The release build compiles out everything below a warning.)
fn browser_log(_app: &mut App) {
    use tracing_subscriber::layer::SubscriberExt;
    let levels = tracing_subscriber::filter::Targets::new()
        .with_default(tracing::Level::INFO)
        .with_target("wgpu", tracing::Level::ERROR)
        .with_target("naga", tracing::Level::WARN);
    let subscriber = tracing_subscriber::Registry::default()
        .with(levels)
        .with(tracing_wasm::WASMLayer::new(tracing_wasm::WASMLayerConfig::default()));
    let _ = tracing_log::LogTracer::init();
    let _ = tracing::subscriber::set_global_default(subscriber);
}
