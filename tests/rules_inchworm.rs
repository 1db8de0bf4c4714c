//! Inchworm: the spec's worked examples, all referee cases, conformance playouts, the literal
//! legality cross-check and perft data.

mod support;

use stoneyard::games::GameKind;

#[test]
fn all_referee_cases_pass() {
    support::assert_all_cases(GameKind::Inchworm);
}
