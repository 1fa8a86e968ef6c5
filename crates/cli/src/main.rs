fn main() {
    println!("parad: not yet");
}
