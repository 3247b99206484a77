#[test] fn placeholder(){}
