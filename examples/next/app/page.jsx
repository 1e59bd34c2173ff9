import Link from 'next/link';

export default function Home() {
  return (
    <main>
      <h1>Example shop</h1>
      <Link href="/about/">About</Link>
    </main>
  );
}
