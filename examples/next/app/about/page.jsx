export const metadata = { title: 'About', other: { 'article:modified_time': '2024-05-02T08:00:00Z' } };

export default function About() {
  return <h1>About the shop</h1>;
}
