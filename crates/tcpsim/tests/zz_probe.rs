fn go(t: &str) { match tcpsim::scenario::load_str(t, "p.toml").and_then(|s| tcpsim::run(&s).map(|_| ())) { Ok(_) => println!("OK"), Err(e) => println!("{e}") } }
#[test]
fn probe() {
    let d = "[simulation]\nduration = \"1s\"\n[dumbbell]\npairs = 2\n[dumbbell.bottleneck]\nrate = \"1.5Mbps\"\ndelay = \"20ms\"\n[dumbbell.access]\nrate = \"10Mbps\"\ndelay = \"2ms\"\nqueue = { kind = \"droptail\", limit = \"500B\" }\n[[flow]]\nfrom = \"s0\"\nto = \"d0\"\n";
    go(d);
    let g = "[simulation]\nduration = \"1s\"\n[network]\nnodes = [\"a\", \"b\"]\n[[link]]\nfrom = \"a\"\nto = \"b\"\nrate = \"10Mbps\"\ndelay = \"5ms\"\nqueue_reverse = { kind = \"droptail\", limit = \"500B\" }\n[[flow]]\nfrom = \"a\"\nto = \"b\"\n";
    go(g);
    go(&g.replace("rate = \"10Mbps\"", "rat = \"10Mbps\""));
    go(&g.replace("[network]", "[netwrk]"));
    go(&g.replace("[[flow]]\nfrom", "[[flow]]\nfrm"));
    go(&g.replace("[simulation]", "[simulatio]"));
}
