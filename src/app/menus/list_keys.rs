//! The keys of a list screen whose rows open, or go after a second press (the games in progress,
//! the finished games): Tab or X asks to delete the focused row, Select then confirms, Esc or B
//! takes the question back or leaves; the row after the list is "Back".

use crate::app::input::Action;
use crate::app::ui::{MenuClicked, MenuFocus, MenuInput, menu_inputs_from};

/// What a list screen's presses ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListPress {
    Open(usize),
    Delete(usize),
    Back,
}

/// This frame's presses on a list of `rows` rows, `confirm_delete` the row whose deletion was asked.
pub fn list_presses(
    focus: &mut MenuFocus,
    pressed: &[Action],
    clicks: &[MenuClicked],
    rows: usize,
    confirm_delete: &mut Option<usize>,
) -> Vec<ListPress> {
    if pressed.contains(&Action::CycleOption) && focus.0 < rows {
        *confirm_delete = Some(focus.0);
        return Vec::new();
    }
    let without_tab: Vec<Action> = pressed.iter().copied().filter(|a| *a != Action::CycleOption).collect();
    let mut out = Vec::new();
    for input in menu_inputs_from(focus, rows + 1, &without_tab, clicks) {
        match input {
            MenuInput::Back if confirm_delete.is_some() => *confirm_delete = None,
            MenuInput::Back => out.push(ListPress::Back),
            MenuInput::Activate(i) if i == rows => out.push(ListPress::Back),
            MenuInput::Activate(i) if *confirm_delete == Some(i) => out.push(ListPress::Delete(i)),
            MenuInput::Activate(i) => out.push(ListPress::Open(i)),
            MenuInput::Adjust(..) => {}
        }
    }
    out
}
