export const metadata = { title: 'Private', robots: { index: false, follow: true } };

export default function Private() {
  return <h1>Staff only</h1>;
}
