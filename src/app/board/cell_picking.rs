//! Finds the board's space under a pointer (a picking backend): each space answers in its own area
//! whether or not anything is drawn there, so the spaces need no invisible sprites, which a
//! software renderer (a browser without a GPU) would fill on every frame. A space under one of
//! the menus' windows (the rules, a dialog) is not found: the window takes the pointer.

use super::gestures::over_egui_window;
use super::project::BoardCell;
use bevy::camera::Projection;
use bevy::picking::PickingSystems;
use bevy::picking::backend::ray::RayMap;
use bevy::picking::backend::{HitData, PointerHits};
use bevy::picking::pointer::{PointerId, PointerLocation};
use bevy::prelude::*;
use bevy_egui::EguiContexts;

/// The area a space answers the pointer in, centred on it, in the board's units before its zoom.
#[derive(Component, Clone, Copy, Debug)]
pub struct CellHitArea(pub Vec2);

pub fn plugin(app: &mut App) {
    app.add_systems(PreUpdate, pick_cells.in_set(PickingSystems::Backend).run_if(resource_exists::<RayMap>));
}

/// Where the ray from the camera meets the plane of a space, in the space's own coordinates.
fn on_cell_plane(to_cell: &bevy::math::Affine3A, ray: Ray3d, length: f32) -> Option<Vec2> {
    let start = to_cell.transform_point3(ray.origin);
    let end = to_cell.transform_point3(ray.origin + *ray.direction * length);
    if start.z == end.z {
        return None;
    }
    let t = start.z / (start.z - end.z);
    (0.0..=1.0).contains(&t).then(|| start.lerp(end, t).xy())
}

/// Reports, for each pointer over an orthographic camera's viewport, the space its ray falls in.
fn pick_cells(
    ray_map: Res<RayMap>,
    pointers: Query<(&PointerId, &PointerLocation)>,
    cameras: Query<(Entity, &Camera, &GlobalTransform, &Projection)>,
    cells: Query<(Entity, &CellHitArea, &GlobalTransform, &InheritedVisibility), With<BoardCell>>,
    mut hits: MessageWriter<PointerHits>,
    mut contexts: EguiContexts,
) {
    for (ray_id, ray) in ray_map.iter() {
        let Ok((camera_entity, camera, camera_transform, Projection::Orthographic(ortho))) = cameras.get(ray_id.camera)
        else {
            continue;
        };
        if !camera.is_active {
            continue;
        }
        let location = pointers.iter().find_map(|(id, loc)| (*id == ray_id.pointer).then_some(loc.location.as_ref()));
        let Some(Some(location)) = location else { continue };
        if camera.logical_viewport_rect().is_some_and(|viewport| !viewport.contains(location.position))
            || over_egui_window(&mut contexts, location.position)
        {
            continue;
        }
        let to_camera = camera_transform.affine().inverse();
        let picks: Vec<(Entity, HitData)> = cells
            .iter()
            .filter(|(.., visible)| visible.get())
            .filter_map(|(entity, area, transform, _)| {
                let at = on_cell_plane(&transform.affine().inverse(), *ray, ortho.far - ortho.near)?;
                (at.abs().cmple(area.0 / 2.0).all()).then(|| {
                    let world = transform.transform_point(at.extend(0.0));
                    // The depth from the camera's near plane, as the sprite backend gives it.
                    let depth = -ortho.near - to_camera.transform_point3(world).z;
                    (entity, HitData::new(camera_entity, depth, Some(world), Some(*transform.back())))
                })
            })
            .collect();
        if !picks.is_empty() {
            hits.write(PointerHits::new(ray_id.pointer, picks, camera.order as f32));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::camera::NormalizedRenderTarget;
    use bevy::picking::backend::ray::RayId;
    use bevy::picking::pointer::Location;

    /// The spaces the backend finds under the mouse at `at`, on a row of three spaces 100 apart
    /// (92 wide, as on a board of points) of which the last is hidden.
    fn hits_at(at: Vec2) -> Vec<String> {
        let mut app = App::new();
        app.add_message::<PointerHits>()
            .init_resource::<RayMap>()
            .init_resource::<bevy_egui::EguiUserTextures>()
            .add_systems(Update, pick_cells);
        let camera = app
            .world_mut()
            .spawn((
                Camera::default(),
                GlobalTransform::default(),
                Projection::Orthographic(OrthographicProjection::default_2d()),
            ))
            .id();
        let target = NormalizedRenderTarget::None { width: 800, height: 600 };
        app.world_mut().spawn((PointerId::Mouse, PointerLocation::new(Location { target, position: Vec2::ZERO })));
        for (index, name) in ["a1", "b1", "c1"].into_iter().enumerate() {
            let visibility = if index == 2 { InheritedVisibility::HIDDEN } else { InheritedVisibility::VISIBLE };
            app.world_mut().spawn((
                BoardCell { cell: index as u16, name: name.into(), index },
                CellHitArea(Vec2::splat(92.0)),
                GlobalTransform::from_xyz(100.0 * index as f32, 0.0, 0.0),
                visibility,
            ));
        }
        // An orthographic camera's ray starts at its near plane and looks down.
        let ray = Ray3d::new(at.extend(1000.0), Dir3::NEG_Z);
        app.world_mut().resource_mut::<RayMap>().map.insert(RayId::new(camera, PointerId::Mouse), ray);
        app.update();
        let hits: Vec<Entity> = app
            .world_mut()
            .resource_mut::<Messages<PointerHits>>()
            .drain()
            .flat_map(|h| h.picks.into_iter().map(|(e, _)| e))
            .collect();
        hits.into_iter().map(|e| app.world().get::<BoardCell>(e).unwrap().name.clone()).collect()
    }

    #[test]
    fn the_pointer_finds_the_space_it_is_over_and_only_that() {
        assert_eq!(hits_at(Vec2::new(3.0, -40.0)), ["a1"]);
        assert_eq!(hits_at(Vec2::new(130.0, 45.0)), ["b1"]);
        // Between two spaces, beyond the board, and on a hidden space: nothing.
        assert!(hits_at(Vec2::new(50.0, 0.0)).is_empty());
        assert!(hits_at(Vec2::new(0.0, 60.0)).is_empty());
        assert!(hits_at(Vec2::new(200.0, 0.0)).is_empty());
    }

    #[test]
    fn a_ray_down_the_camera_meets_a_space_at_its_own_coordinates() {
        // A space at (100, 50) on a board zoomed twice: the ray at (110, 44) is (5, -3) from it.
        let cell = Transform::from_xyz(100.0, 50.0, 0.0).with_scale(Vec3::splat(2.0));
        let to_cell = GlobalTransform::from(cell).affine().inverse();
        let ray = Ray3d::new(Vec3::new(110.0, 44.0, 1000.0), Dir3::NEG_Z);
        let at = on_cell_plane(&to_cell, ray, 2000.0).unwrap();
        assert!((at - Vec2::new(5.0, -3.0)).length() < 1e-4, "{at}");
        // A ray that stops before the board's plane meets nothing.
        assert!(on_cell_plane(&to_cell, ray, 500.0).is_none());
    }
}
