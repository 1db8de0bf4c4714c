//! Mouse clicks on the board's spaces: the primary button pressed and let go over the same space.
//!
//! Why not bevy_picking's `Pointer<Click>`: it looks for the released space among those the
//! pointer hovered in the previous update, while the press looks at this update's. A mouse that
//! moved onto a space and clicked within one update (a quick click on a slow renderer, whose
//! frames take 100 ms and more) pressed that space, released over "nothing", and the click was
//! lost: the board's cursor moved there and no move was made. Here both ends look at the spaces
//! hovered in the update that reads them.

use super::project::BoardCell;
use crate::app::AppSystems;
use crate::app::playing::CellChosen;
use bevy::picking::hover::HoverMap;
use bevy::picking::pointer::{PointerAction, PointerButton, PointerId, PointerInput};
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.init_resource::<PressedSpace>();
    app.add_systems(
        Update,
        mouse_clicks.in_set(AppSystems::RecordInput).run_if(resource_exists::<Messages<PointerInput>>),
    );
}

/// The space the mouse's primary button went down on, until it comes up.
#[derive(Resource, Debug, Default)]
struct PressedSpace(Option<Entity>);

fn mouse_clicks(
    mut inputs: MessageReader<PointerInput>,
    hovers: Option<Res<HoverMap>>,
    cells: Query<&BoardCell>,
    mut pressed: ResMut<PressedSpace>,
    mut chosen: MessageWriter<CellChosen>,
) {
    let hovered = || hovers.as_ref()?.get(&PointerId::Mouse)?.keys().copied().find(|entity| cells.contains(*entity));
    for input in inputs.read().filter(|input| input.pointer_id.is_mouse()) {
        match input.action {
            PointerAction::Press(PointerButton::Primary) => pressed.0 = hovered(),
            PointerAction::Release(PointerButton::Primary) => {
                if let Some(space) = pressed.0.take()
                    && hovered() == Some(space)
                    && let Ok(cell) = cells.get(space)
                {
                    chosen.write(CellChosen(cell.name.clone()));
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::camera::NormalizedRenderTarget;
    use bevy::picking::backend::HitData;
    use bevy::picking::pointer::Location;
    use bevy::window::WindowRef;

    fn app() -> (App, Entity, Entity) {
        let mut app = App::new();
        app.add_message::<PointerInput>().add_message::<CellChosen>().init_resource::<HoverMap>();
        app.configure_sets(Update, AppSystems::RecordInput);
        plugin(&mut app);
        let a1 = app.world_mut().spawn(BoardCell { cell: 0, name: "A1".into(), index: 0 }).id();
        let b1 = app.world_mut().spawn(BoardCell { cell: 1, name: "B1".into(), index: 1 }).id();
        (app, a1, b1)
    }

    fn hover(app: &mut App, space: Option<Entity>) {
        let mut map = app.world_mut().resource_mut::<HoverMap>();
        let hovered = map.entry(PointerId::Mouse).or_default();
        hovered.clear();
        if let Some(space) = space {
            hovered.insert(space, HitData::new(Entity::PLACEHOLDER, 0.0, None, None));
        }
    }

    fn mouse(app: &mut App, action: PointerAction) {
        let window = WindowRef::Primary.normalize(Some(Entity::PLACEHOLDER)).unwrap();
        let location = Location { target: NormalizedRenderTarget::Window(window), position: Vec2::ZERO };
        app.world_mut().write_message(PointerInput::new(PointerId::Mouse, location, action));
    }

    fn chosen(app: &mut App) -> Vec<String> {
        app.world_mut().resource_mut::<Messages<CellChosen>>().drain().map(|c| c.0).collect()
    }

    #[test]
    fn a_click_within_one_update_of_arriving_on_a_space_chooses_it() {
        let (mut app, a1, _) = app();
        hover(&mut app, None);
        app.update();
        // The mouse moved onto A1, pressed and let go, all before the next update.
        hover(&mut app, Some(a1));
        mouse(&mut app, PointerAction::Press(PointerButton::Primary));
        mouse(&mut app, PointerAction::Release(PointerButton::Primary));
        app.update();
        assert_eq!(chosen(&mut app), ["A1"]);
    }

    #[test]
    fn a_press_and_release_in_separate_updates_choose_the_space() {
        let (mut app, _, b1) = app();
        hover(&mut app, Some(b1));
        mouse(&mut app, PointerAction::Press(PointerButton::Primary));
        app.update();
        assert!(chosen(&mut app).is_empty(), "nothing before the button comes up");
        mouse(&mut app, PointerAction::Release(PointerButton::Primary));
        app.update();
        assert_eq!(chosen(&mut app), ["B1"]);
    }

    #[test]
    fn let_go_over_another_space_or_off_the_board_or_another_button_chooses_nothing() {
        let (mut app, a1, b1) = app();
        hover(&mut app, Some(a1));
        mouse(&mut app, PointerAction::Press(PointerButton::Primary));
        app.update();
        hover(&mut app, Some(b1));
        mouse(&mut app, PointerAction::Release(PointerButton::Primary));
        app.update();
        hover(&mut app, Some(a1));
        mouse(&mut app, PointerAction::Press(PointerButton::Primary));
        app.update();
        hover(&mut app, None);
        mouse(&mut app, PointerAction::Release(PointerButton::Primary));
        app.update();
        mouse(&mut app, PointerAction::Press(PointerButton::Secondary));
        mouse(&mut app, PointerAction::Release(PointerButton::Secondary));
        app.update();
        assert!(chosen(&mut app).is_empty());
    }
}
