use super::*;

fn sente_json(seed: u32) -> String {
    auto_deployment("sente", seed).unwrap()
}

fn gote_json(seed: u32) -> String {
    auto_deployment("gote", seed).unwrap()
}

#[test]
fn auto_deployments_are_valid_and_seeded() {
    let a = sente_json(7);
    assert_eq!(a, sente_json(7));
    assert_eq!(validate("sente", &a).unwrap(), r#"{"ok":true}"#);
    let map: BTreeMap<String, String> = serde_json::from_str(&a).unwrap();
    assert_eq!(map.len(), 23);
    assert!(
        map.keys()
            .all(|k| Square::parse(k).unwrap().camp() == Side::Sente)
    );
    assert!(auto_deployment("nobody", 1).is_err());
}

#[test]
fn swap_refuses_flag_on_back_row_with_rule_square_and_kind() {
    let d = Deployment::auto(Side::Sente, 3);
    let flag = d.pieces().find(|&(_, k)| k == Kind::Flag).unwrap().0;
    let a1 = Square::parse("a1").unwrap();
    let answer: serde_json::Value =
        serde_json::from_str(&swap("sente", &deployment_json(&d), flag.name(), "a1").unwrap())
            .unwrap();
    assert_eq!(answer["ok"], false);
    assert_eq!(answer["violation"]["rule"], "flag_on_back_row");
    assert_eq!(answer["violation"]["square"], a1.name());
    assert_eq!(answer["violation"]["kind"], "flag");
}

#[test]
fn swap_exchanges_two_pieces() {
    let d = Deployment::auto(Side::Gote, 5);
    let (x, y) = (Square::parse("a5").unwrap(), Square::parse("f8").unwrap());
    let (kx, ky) = (d.kind_at(x).unwrap(), d.kind_at(y).unwrap());
    let answer: serde_json::Value =
        serde_json::from_str(&swap("gote", &deployment_json(&d), "a5", "f8").unwrap()).unwrap();
    if answer["ok"] == true {
        assert_eq!(answer["deployment"]["a5"], ky.id());
        assert_eq!(answer["deployment"]["f8"], kx.id());
    } else {
        // a5 is not an entrance and f8 is on the back row: only a flag moving to f8 is refused.
        assert_eq!(kx, Kind::Flag);
    }
}

#[test]
fn swap_outside_camp_is_refused_not_thrown() {
    let answer = swap("sente", &sente_json(1), "a1", "a8").unwrap();
    assert!(answer.contains(r#""rule":"outside_camp""#), "{answer}");
}

#[test]
fn mirror_twice_is_identity_and_validate_reports_violations() {
    let a = sente_json(11);
    assert_eq!(mirror("sente", &mirror("sente", &a).unwrap()).unwrap(), a);
    let mut map: BTreeMap<String, String> = serde_json::from_str(&a).unwrap();
    map.insert("b4".into(), "mine".into());
    let answer = validate("sente", &serde_json::to_string(&map).unwrap()).unwrap();
    assert!(answer.starts_with(r#"{"ok":false"#), "{answer}");
    assert!(answer.contains("mine_on_entrance") || answer.contains("wrong_count"));
    assert!(validate("sente", "not json").unwrap().contains("bad_json"));
}

#[test]
fn battle_table_comes_from_the_engine() {
    let t: serde_json::Value = serde_json::from_str(&battle_table()).unwrap();
    let attackers = t["attackers"].as_array().unwrap();
    let defenders = t["defenders"].as_array().unwrap();
    assert_eq!(attackers.len(), 14);
    assert_eq!(defenders.len(), 16);
    let at = |a: &str, d: &str| {
        let i = attackers.iter().position(|x| x == a).unwrap();
        let j = defenders.iter().position(|x| x == d).unwrap();
        t["outcomes"][i][j].as_str().unwrap().to_owned()
    };
    assert_eq!(at("spy", "general"), "attacker");
    assert_eq!(at("general", "spy"), "defender");
    assert_eq!(at("tank", "engineer"), "attacker");
    assert_eq!(at("tank", "mine"), "both");
    assert_eq!(at("plane", "mine"), "attacker");
    assert_eq!(at("major", "major"), "both");
}

#[test]
fn game_answers_per_side_and_hides_enemy_kinds() {
    let mut g = GameHandle::new(&sente_json(1), &gote_json(2)).unwrap();
    assert_eq!(g.to_move(), "sente");
    let view: serde_json::Value = serde_json::from_str(&g.view("gote").unwrap()).unwrap();
    let pieces = view["pieces"].as_object().unwrap();
    assert_eq!(pieces.len(), 46);
    for (sq, p) in pieces {
        let own = p["side"] == "gote";
        assert_eq!(p.get("kind").is_some(), own, "{sq}: {p}");
    }
    let moves: Vec<(String, String)> = serde_json::from_str(&g.legal_moves()).unwrap();
    let (from, to) = moves[0].clone();
    // Gote may not ask for sente's destinations, nor sente for a square it does not hold.
    assert_eq!(
        g.destinations("gote", &from).unwrap(),
        r#"{"moves":[],"attacks":[]}"#
    );
    let dest: serde_json::Value =
        serde_json::from_str(&g.destinations("sente", &from).unwrap()).unwrap();
    let reachable = |key: &str| dest[key].as_array().unwrap().iter().any(|s| s == &to);
    assert!(reachable("moves") || reachable("attacks"));
    let answer: serde_json::Value = serde_json::from_str(&g.play(&from, &to).unwrap()).unwrap();
    assert_eq!(answer["ply"]["side"], "sente");
    assert_eq!(answer["status"]["state"], "ongoing");
    assert_eq!(g.to_move(), "gote");
    assert!(g.play(&from, &to).is_err());
    let status: serde_json::Value = serde_json::from_str(&g.resign("gote").unwrap()).unwrap();
    assert_eq!(status["winner"], "sente");
    assert_eq!(status["reason"], "resignation");
    let view: serde_json::Value = serde_json::from_str(&g.view("gote").unwrap()).unwrap();
    assert!(
        view["pieces"]
            .as_object()
            .unwrap()
            .values()
            .all(|p| p.get("kind").is_some())
    );
}

#[test]
fn new_game_rejects_a_wrong_arrangement() {
    assert!(GameHandle::new(&gote_json(1), &gote_json(2)).is_err());
    assert!(GameHandle::new("{}", &gote_json(2)).is_err());
}

#[test]
fn kinds_and_squares_list_everything() {
    let k: Vec<serde_json::Value> = serde_json::from_str(&kinds()).unwrap();
    assert_eq!(k.len(), 16);
    assert_eq!(k[4]["en"], "lieutenant colonel");
    assert_eq!(
        k.iter().map(|x| x["count"].as_u64().unwrap()).sum::<u64>(),
        23
    );
    let s: Vec<serde_json::Value> = serde_json::from_str(&squares()).unwrap();
    assert_eq!(s.len(), 46);
    assert_eq!(s[2]["name"], "cd1");
    assert_eq!(s[2]["hq"], true);
    let entrances: Vec<&str> = s
        .iter()
        .filter(|x| x["entrance"] == true)
        .map(|x| x["name"].as_str().unwrap())
        .collect();
    assert_eq!(entrances, ["b4", "e4", "b5", "e5"]);
}
