/* A struct tag and a typedef of the same name for different types. */
typedef int node;
struct node { node value; struct node *next; };

int main(void)
{
    struct node n = {3, 0};
    node v = n.value;
    return v != 3;
}
